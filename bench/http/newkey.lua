-- (b) The guarded POST with a new Idempotency-Key on every request: claim, run, store.
-- Keys are "<run prefix>-<thread>-<counter>", unique across threads, runs and server restarts
-- (the prefix is the first script argument: wrk ... -s newkey.lua URL -- <prefix>).
local threads = {}
local next_id = 0

function setup(thread)
  thread:set("tid", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

function init(args)
  prefix = args[1] or tostring(os.time())
  counter = 0
  wrk.method = "POST"
  wrk.body = '{"orderId":"o-1","amount":42}'
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  counter = counter + 1
  return wrk.format(nil, nil, { ["Idempotency-Key"] = prefix .. "-" .. tid .. "-" .. counter })
end

-- Any answer other than 201 means the run did not measure what it claims: count them.
function response(status, headers, body)
  if status ~= 201 then bad = (bad or 0) + 1 end
end

function done(summary, latency, requests)
  local total = 0
  for _, t in ipairs(threads) do total = total + (t:get("bad") or 0) end
  io.write(string.format("non-201: %d\n", total))
end

-- (c) The guarded POST, every request a replay of one fixed Idempotency-Key (run.sh sends it once
-- first, so every request here is answered from the store; the resource does not run).
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  wrk.method = "POST"
  wrk.body = '{"orderId":"o-1","amount":42}'
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Idempotency-Key"] = args[1] or "replay"
end

-- A replay answers 201 with Idempotent-Replayed: true; count anything else.
function response(status, headers, body)
  if status ~= 201 or headers["Idempotent-Replayed"] ~= "true" then bad = (bad or 0) + 1 end
end

function done(summary, latency, requests)
  local total = 0
  for _, t in ipairs(threads) do total = total + (t:get("bad") or 0) end
  io.write(string.format("non-replays: %d\n", total))
end

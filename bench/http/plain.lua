-- (a) The unguarded POST: the floor.
wrk.method = "POST"
wrk.body = '{"orderId":"o-1","amount":42}'
wrk.headers["Content-Type"] = "application/json"

-- The same response check as the guarded scripts, so that wrk does the same work per response.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function response(status, headers, body)
  if status ~= 201 then bad = (bad or 0) + 1 end
end

function done(summary, latency, requests)
  local total = 0
  for _, t in ipairs(threads) do total = total + (t:get("bad") or 0) end
  io.write(string.format("non-201: %d\n", total))
end

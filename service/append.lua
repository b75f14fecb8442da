-- Append one batch of sealed events to a game, atomically.
-- A script cannot roll back, so every check runs before the first write.
--
-- KEYS[1] game:{id}:events     stream, entry id 0-<version>
-- KEYS[2] game:{id}:event_ids  hash, event id -> version
-- KEYS[3] the all-events stream  stream, entry id 0-<position>, fields game, version, at
--         (events:$all on one Redis; on a cluster the stream of the game's bucket, whose hash
--         tag the game's keys share, so the script stays on one slot)
-- KEYS[4] game:{id}:head       hash, version and hash of the newest event appended: what the
--         store vouches for, so a tail deleted from the stream is noticed (chain_truncated)
-- ARGV[1] game id, ARGV[2] expected version, ARGV[3] events in the batch,
-- ARGV[4] strings per event; then per event: its event id, then field/value pairs.
--
-- Replies {'ok', versions, positions}, {'duplicate', versions, positions},
-- {'partial_retry', recorded event ids}, {'version_conflict', actual version} or
-- {'chain_truncated', the stream's last version, the head's version}.

local stream, ids, all, head = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local game = ARGV[1]
local expected = tonumber(ARGV[2])
local count = tonumber(ARGV[3])
local width = tonumber(ARGV[4])

local function start(i)
  return 5 + (i - 1) * width
end

local function int(n)
  return string.format('%d', n)
end

-- The number after "0-" in a stream's newest entry id; 0 for an empty stream.
local function last_number(key)
  local newest = redis.call('XREVRANGE', key, '+', '-', 'COUNT', 1)
  if #newest == 0 then
    return 0
  end
  return tonumber(string.match(newest[1][1], '^0%-(%d+)$'))
end

local function field(flat, name)
  for j = 1, #flat, 2 do
    if flat[j] == name then
      return flat[j + 1]
    end
  end
end

-- A stream that lost its tail takes nothing: an append would fork the chain at the cut, and a
-- retry could not find the events it was told about.
local actual = last_number(stream)
local vouched = redis.call('HGET', head, 'version')
if vouched and tonumber(vouched) > actual then
  return {'chain_truncated', actual, tonumber(vouched)}
end

local versions, recorded = {}, {}
for i = 1, count do
  local version = redis.call('HGET', ids, ARGV[start(i)])
  if version then
    versions[#versions + 1] = tonumber(version)
    recorded[#recorded + 1] = ARGV[start(i)]
  end
end

if #versions == count then
  -- A retry of a stored batch: answer as the first time, write nothing.
  local positions = {}
  for i = 1, count do
    local id = '0-' .. int(versions[i])
    local entry = redis.call('XRANGE', stream, id, id)
    positions[i] = tonumber(field(entry[1][2], 'position'))
  end
  return {'duplicate', versions, positions}
end
if #versions > 0 then
  return {'partial_retry', recorded}
end

if actual ~= expected then
  return {'version_conflict', actual}
end

-- The pointer's `at` lets readers of several all-events streams order them by time.
local function appended_at(entry)
  return cjson.decode(field(entry, 'body'))['at']
end

local position = last_number(all)
local positions = {}
for i = 1, count do
  local version = expected + i
  position = position + 1
  local entry = {}
  for j = start(i) + 1, start(i) + width - 1 do
    entry[#entry + 1] = ARGV[j]
  end
  entry[#entry + 1] = 'position'
  entry[#entry + 1] = int(position)
  redis.call('XADD', stream, '0-' .. int(version), unpack(entry))
  redis.call('HSET', ids, ARGV[start(i)], int(version))
  redis.call('XADD', all, '0-' .. int(position), 'game', game, 'version', int(version), 'at', appended_at(entry))
  versions[i] = version
  positions[i] = position
  if i == count then
    redis.call('HSET', head, 'version', int(version), 'hash', field(entry, 'hash'))
  end
end
return {'ok', versions, positions}

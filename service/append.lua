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
-- ARGV[1] game id, ARGV[2] expected version, ARGV[3] events in the batch; then per event seven
-- strings: its event id, its `at`, and its stream fields body, secret, salt, command_hidden and
-- hash (record.envelope.STREAM_FIELDS, in that order; the script adds `position`).
--
-- Replies {'ok', versions, positions}, {'duplicate', versions, positions},
-- {'partial_retry', recorded event ids}, {'version_conflict', actual version} or
-- {'chain_truncated', the stream's last version, the head's version}.
--
-- Its cost is mostly its redis.call()s (each converts its arguments and its reply and feeds the
-- AOF), so the common case makes 6 and 2 per event: the checks read lengths, not entries; the
-- event ids are read and written in one call each; Python hands over every field, so no JSON is
-- decoded here.

local stream, ids, all, head = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local game = ARGV[1]
local expected, count = tonumber(ARGV[2]), tonumber(ARGV[3])

-- Where the event `i` starts in ARGV.
local function first(i)
  return 4 + (i - 1) * 7
end

-- The number after "0-" in a stream's newest entry id; 0 for an empty stream.
local function last_number(key)
  local newest = redis.call('XREVRANGE', key, '+', '-', 'COUNT', 1)
  if #newest == 0 then
    return 0
  end
  return tonumber(string.match(newest[1][1], '^0%-(%d+)$'))
end

-- Versions run 1, 2, 3 ... without gaps and only this script and the import write them, so a
-- stream as long as its head's version ends there. Only a stream written before heads existed,
-- or one that lost entries, needs its newest entry read. A stream that lost its tail takes
-- nothing: an append would fork the chain at the cut, and a retry could not find the events
-- it was told about.
local vouched = redis.call('HGET', head, 'version')
vouched = vouched and tonumber(vouched)
local length = redis.call('XLEN', stream)
local actual = length
if length ~= (vouched or 0) then
  actual = last_number(stream)
  if vouched and vouched > actual then
    return {'chain_truncated', actual, vouched}
  end
end

local event_ids = {}
for i = 1, count do
  event_ids[i] = ARGV[first(i)]
end
local found = redis.call('HMGET', ids, unpack(event_ids))
local versions, recorded = {}, {}
for i = 1, count do
  if found[i] then
    versions[#versions + 1] = tonumber(found[i])
    recorded[#recorded + 1] = event_ids[i]
  end
end

if #versions == count then
  -- A retry of a stored batch: answer as the first time, write nothing.
  local positions = {}
  for i = 1, count do
    local id = '0-' .. string.format('%d', versions[i])
    local fields = redis.call('XRANGE', stream, id, id)[1][2]
    for j = 1, #fields, 2 do
      if fields[j] == 'position' then
        positions[i] = tonumber(fields[j + 1])
      end
    end
  end
  return {'duplicate', versions, positions}
end
if #versions > 0 then
  return {'partial_retry', recorded}
end

if actual ~= expected then
  return {'version_conflict', actual}
end

-- Positions run 1, 2, 3 ... without gaps in every all-events stream (appends, imports and the
-- move to a cluster number them so), so its length is its newest position and no entry needs
-- reading; should it not be (a pointer deleted by hand), Redis refuses the first pointer, nothing
-- is written yet, and the newest position is read instead. The first pointer goes before its
-- event only when the stream is as long as its head vouches: then Redis cannot refuse the event's
-- id either. (A stream without a head, or that lost entries, may once have held a newer id.)
local guessed = vouched ~= nil and length == vouched
local position = guessed and redis.call('XLEN', all) or last_number(all)

local function add_pointer(pcall_or_call, pointer, version, at)
  return pcall_or_call('XADD', all, '0-' .. pointer, 'game', game, 'version', version, 'at', at)
end

local positions, recorded_ids = {}, {}
for i = 1, count do
  local a = first(i)
  local version = string.format('%d', expected + i)
  position = position + 1
  local pointer = string.format('%d', position)
  -- The pointer's `at` lets readers of several all-events streams order them by time.
  if i == 1 and guessed then
    local added = add_pointer(redis.pcall, pointer, version, ARGV[a + 1])
    if type(added) == 'table' and added.err then
      position = last_number(all) + 1
      pointer = string.format('%d', position)
      add_pointer(redis.call, pointer, version, ARGV[a + 1])
    end
  end
  redis.call('XADD', stream, '0-' .. version, 'body', ARGV[a + 2], 'secret', ARGV[a + 3],
    'salt', ARGV[a + 4], 'command_hidden', ARGV[a + 5], 'hash', ARGV[a + 6], 'position', pointer)
  if i > 1 or not guessed then
    add_pointer(redis.call, pointer, version, ARGV[a + 1])
  end
  recorded_ids[2 * i - 1] = event_ids[i]
  recorded_ids[2 * i] = version
  versions[i] = expected + i
  positions[i] = position
end
redis.call('HSET', ids, unpack(recorded_ids))
redis.call('HSET', head, 'version', string.format('%d', expected + count), 'hash', ARGV[first(count) + 6])
return {'ok', versions, positions}

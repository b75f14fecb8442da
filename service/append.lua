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
-- ARGV[1] game id, ARGV[2] expected version, ARGV[3] the batch's `at`; then the batch's event
-- ids; then per event five strings, its stream fields body, secret, salt, command_hidden and
-- hash (record.envelope.STREAM_FIELDS, in that order; the script adds `position`).
--
-- Replies the first event's position (versions and positions run on by one from the expected
-- version and that position), or {'duplicate', versions, positions},
-- {'partial_retry', recorded event ids}, {'version_conflict', actual version} or
-- {'chain_truncated', the stream's last version, the head's version}.
--
-- Its cost is the script's machinery as much as the commands it calls: every redis.call
-- converts its arguments and its reply and feeds the AOF, every ARGV string is copied into Lua
-- and every table and string it makes is garbage to collect. So the common case makes 6 calls
-- and 2 per event, reads lengths rather than entries, takes the event ids as one run of ARGV
-- (HMGET takes them as they are), each field once (the `at` once a batch), defines no function
-- and answers one number.

local stream, ids, all, head = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local TABLE = 'keeps this hash a hash table: each lookup reads one entry, not every event id'
local expected = tonumber(ARGV[2])
local count = (#ARGV - 3) / 6

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
  local newest = redis.call('XREVRANGE', stream, '+', '-', 'COUNT', 1)
  actual = newest[1] and tonumber(string.match(newest[1][1], '^0%-(%d+)$')) or 0
  if vouched and vouched > actual then
    return {'chain_truncated', actual, vouched}
  end
end

-- The event ids' hash is looked up by every append, so it is kept a hash table: Redis keeps a
-- small hash as a ziplist (up to hash-max-ziplist-entries, 128 by default) and reads it entry
-- by entry, which in a game of a hundred events was a third of the script's instructions. A
-- value longer than hash-max-ziplist-value (64) turns a hash into a table for good; the field
-- '' holds one (no event id is empty), written by the first append that does not find it.
local found = redis.call('HMGET', ids, '', unpack(ARGV, 4, 3 + count))
local seen = 0
for i = 2, count + 1 do
  if found[i] then
    seen = seen + 1
  end
end
if seen == count then
  -- A retry of a stored batch: answer as the first time, write nothing.
  local versions, positions = {}, {}
  for i = 1, count do
    versions[i] = tonumber(found[i + 1])
    local id = '0-' .. found[i + 1]
    local fields = redis.call('XRANGE', stream, id, id)[1][2]
    for j = 1, #fields, 2 do
      if fields[j] == 'position' then
        positions[i] = tonumber(fields[j + 1])
      end
    end
  end
  return {'duplicate', versions, positions}
end
if seen > 0 then
  local recorded = {}
  for i = 1, count do
    if found[i + 1] then
      recorded[#recorded + 1] = ARGV[3 + i]
    end
  end
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
local position
if guessed then
  position = redis.call('XLEN', all)
else
  local newest = redis.call('XREVRANGE', all, '+', '-', 'COUNT', 1)
  position = newest[1] and tonumber(string.match(newest[1][1], '^0%-(%d+)$')) or 0
end
local first = position + 1

local game, at = ARGV[1], ARGV[3]
local recorded = {}
if not found[1] then
  recorded[1], recorded[2] = '', TABLE
end
local at_recorded = #recorded
local version
local a = 4 + count -- where the event's fields start in ARGV
for i = 1, count do
  version = string.format('%d', expected + i)
  position = position + 1
  local pointer = string.format('%d', position)
  -- The pointer's `at` lets readers of several all-events streams order them by time.
  if i == 1 and guessed then
    local added = redis.pcall('XADD', all, '0-' .. pointer, 'game', game, 'version', version, 'at', at)
    if type(added) == 'table' and added.err then
      local newest = redis.call('XREVRANGE', all, '+', '-', 'COUNT', 1)
      position = tonumber(string.match(newest[1][1], '^0%-(%d+)$')) + 1
      first = position
      pointer = string.format('%d', position)
      redis.call('XADD', all, '0-' .. pointer, 'game', game, 'version', version, 'at', at)
    end
  end
  redis.call('XADD', stream, '0-' .. version, 'body', ARGV[a], 'secret', ARGV[a + 1],
    'salt', ARGV[a + 2], 'command_hidden', ARGV[a + 3], 'hash', ARGV[a + 4], 'position', pointer)
  if i > 1 or not guessed then
    redis.call('XADD', all, '0-' .. pointer, 'game', game, 'version', version, 'at', at)
  end
  recorded[at_recorded + 2 * i - 1] = ARGV[3 + i]
  recorded[at_recorded + 2 * i] = version
  a = a + 5
end
redis.call('HSET', ids, unpack(recorded))
redis.call('HSET', head, 'version', version, 'hash', ARGV[a - 1])
-- A number, not a table: Redis answers a table through a list of reply chunks it allocates.
return first

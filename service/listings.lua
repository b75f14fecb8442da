-- Write entries of a listing (games or tournaments) and advance its checkpoint, atomically.
-- A script cannot roll back, so it only writes; every entry is checked before its own writes.
--
-- KEYS[1] summaries   hash, id -> the entry's JSON summary
-- KEYS[2] entries     hash, id -> JSON {version, member, sets}: what a later write must undo
-- KEYS[3] checkpoint  hash, all-events stream -> the position read up to in it
-- KEYS[4..] the sorted sets the entries below join (declared for the cluster's routing: every
--           key of one listing shares its hash tag, so the script stays on one slot)
-- ARGV[1] entries; then per entry: id, version, member, summary ('' removes the entry),
--         its number of sets, the sets' names; then the number of checkpoint pairs and the
--         pairs (stream, position).
--
-- An entry is written only when its version is newer than the stored one: a slower writer with
-- an older fold never moves an entry back. A checkpoint only moves forward. Replies how many
-- entries were written.

local summaries, entries, checkpoint = KEYS[1], KEYS[2], KEYS[3]
local count = tonumber(ARGV[1])
local i = 2
local written = 0

for _ = 1, count do
  local id, version, member, summary = ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2], ARGV[i + 3]
  local sets = {}
  for k = 1, tonumber(ARGV[i + 4]) do
    sets[k] = ARGV[i + 4 + k]
  end
  i = i + 5 + #sets
  local stored = redis.call('HGET', entries, id)
  local before = stored and cjson.decode(stored)
  if summary == '' or not before or before['version'] < version then
    if before then
      for _, key in ipairs(before['sets']) do
        redis.call('ZREM', key, before['member'])
      end
    end
    if summary == '' then
      redis.call('HDEL', summaries, id)
      redis.call('HDEL', entries, id)
    else
      for _, key in ipairs(sets) do
        redis.call('ZADD', key, 0, member)
      end
      redis.call('HSET', summaries, id, summary)
      redis.call('HSET', entries, id, cjson.encode({version = version, member = member, sets = sets}))
    end
    written = written + 1
  end
end

for _ = 1, tonumber(ARGV[i]) do
  local stream, position = ARGV[i + 1], tonumber(ARGV[i + 2])
  i = i + 2
  if position > tonumber(redis.call('HGET', checkpoint, stream) or '0') then
    redis.call('HSET', checkpoint, stream, string.format('%d', position))
  end
end
return written

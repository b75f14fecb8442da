-- Import one verified game verbatim into an empty game key, archived, atomically.
-- A script cannot roll back, so every check runs before the first write.
--
-- KEYS[1] game:{id}:events       stream, entry id 0-<version>
-- KEYS[2] game:{id}:event_ids    hash, event id -> version
-- KEYS[3] the all-events stream  stream, entry id 0-<position>, fields game, version, at
--         (see append.lua)
-- KEYS[4] game:{id}:archive      string, the archive header: the game takes no command
-- KEYS[5] game:{id}:annotations  stream of annotation records (auto ids)
-- KEYS[6] game:{id}:head         hash, version and hash of the last event (see append.lua)
-- ARGV[1] game id, ARGV[2] events, ARGV[3] strings per event, ARGV[4] the header,
-- ARGV[5] annotations; then per event: its event id, then field/value pairs
-- (version 1, 2, ... in order); then one JSON record per annotation.
--
-- Replies {'ok', versions, positions} or {'exists'} (nothing written).

local stream, ids, all, archive, notes, head = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local game = ARGV[1]
local count = tonumber(ARGV[2])
local width = tonumber(ARGV[3])
local header = ARGV[4]
local annotations = tonumber(ARGV[5])

local function start(i)
  return 6 + (i - 1) * width
end

local function int(n)
  return string.format('%d', n)
end

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

-- Never overwrite: only a game id no key of which exists yet.
if redis.call('EXISTS', stream, ids, archive, notes, head) > 0 then
  return {'exists'}
end

local position = last_number(all)
local versions, positions = {}, {}
for i = 1, count do
  position = position + 1
  local entry = {}
  for j = start(i) + 1, start(i) + width - 1 do
    entry[#entry + 1] = ARGV[j]
  end
  entry[#entry + 1] = 'position'
  entry[#entry + 1] = int(position)
  redis.call('XADD', stream, '0-' .. int(i), unpack(entry))
  redis.call('HSET', ids, ARGV[start(i)], int(i))
  local at = cjson.decode(field(entry, 'body'))['at']
  redis.call('XADD', all, '0-' .. int(position), 'game', game, 'version', int(i), 'at', at)
  versions[i] = i
  positions[i] = position
  if i == count then
    redis.call('HSET', head, 'version', int(i), 'hash', field(entry, 'hash'))
  end
end
redis.call('SET', archive, header)
local first = start(count + 1)
for k = 0, annotations - 1 do
  redis.call('XADD', notes, '*', 'annotation', ARGV[first + k])
end
return {'ok', versions, positions}

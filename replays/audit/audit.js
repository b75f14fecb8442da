// The audit page (docs/replays.md, "The audit page"): a game file or a tournament bundle, and the
// receipts a player kept, checked in the browser alone. Every hash is recomputed with WebCrypto
// over the canonical JSON of the event as record/canonical.py writes it (sorted keys by code
// point, no spaces, non-ASCII as is, Python's spelling of floats), every shown secret against its
// salted digest, every receipt's Ed25519 signature against the file's keys and its hash against
// the file. The rules (the referee replay, the folds, pairings and results) stay in `replays
// verify`. Nothing here reads or sends anything over a network: the page works from disk.
(function () {
  "use strict";

  // record/envelope.py HASHED_FIELDS: the fields an event's hash covers (a test holds them equal).
  const HASHED_FIELDS = ["version", "type", "schema", "data", "secret_digest", "audience", "actor",
    "command_id", "event_id", "at", "prev_hash"];
  const EVENT_FIELDS = ["version", "type", "schema", "data", "secret", "salt", "secret_digest",
    "audience", "actor", "command_id", "event_id", "at", "prev_hash", "hash"];
  // record/envelope.py COMMAND_FIELDS: hashed too, on the event that records a command only.
  const COMMAND_FIELDS = ["command", "command_audience", "command_digest"];
  // replays/archive.py COMMAND_LINE_FIELDS: a line that records a command has all of them.
  const COMMAND_LINE_FIELDS = COMMAND_FIELDS.concat(["command_secret", "command_salt"]);
  // Game files of format_version 2 record no commands; 3 may.
  const GAME_FORMATS = ["2", "3"];
  const GAME_HEADER_FIELDS = ["format", "format_version", "game", "options", "mode", "seats", "setup",
    "complete", "events", "annotations"];
  const ZERO_HASH = "0".repeat(64);
  const GAME_FORMAT = "archipelago-game";
  const BUNDLE_FORMAT = "archipelago-tournament";
  const CREATED_PREFIX = "create-";
  const LOWER_HEX = /^(?:[0-9a-f]{2})+$/;
  const MAX_DEPTH = 500;

  // --- canonical JSON -------------------------------------------------------------------------

  // A number as its text in the file: JSON.parse would lose 2**60 and turn 1.0 into 1, and the
  // hash covers Python's text of the number, not JavaScript's.
  class Num {
    constructor(raw) { this.raw = raw; }
    get isInt() { return !/[.eE]/.test(this.raw); }
  }

  class JsonError extends Error {}

  const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
  const SHORT_ESCAPES = { "\"": "\"", "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

  // Strict JSON (RFC 8259) into Maps (insertion order kept, any key safe), arrays, strings,
  // Num, booleans and null. A repeated key keeps its last value, as Python's json does.
  function parse(text) {
    let at = 0;
    function fail(what) { throw new JsonError(what + " at column " + (at + 1)); }
    function space() { while (at < text.length && " \t\n\r".includes(text[at])) at++; }
    function string() {
      at++; // the opening quote
      let out = "";
      for (;;) {
        if (at >= text.length) fail("an unterminated string");
        const c = text[at];
        const code = text.charCodeAt(at);
        if (c === "\"") { at++; return out; }
        if (code < 0x20) fail("a control character in a string");
        if (c !== "\\") { out += c; at++; continue; }
        const e = text[at + 1];
        if (e === "u") {
          const hex = text.slice(at + 2, at + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("a bad \\u escape");
          out += String.fromCharCode(parseInt(hex, 16));
          at += 6;
        } else if (e !== undefined && Object.prototype.hasOwnProperty.call(SHORT_ESCAPES, e)) {
          out += SHORT_ESCAPES[e];
          at += 2;
        } else {
          fail("a bad escape");
        }
      }
    }
    function value(depth) {
      if (depth > MAX_DEPTH) fail("nesting too deep");
      space();
      const c = text[at];
      if (c === "{") {
        at++;
        const map = new Map();
        space();
        if (text[at] === "}") { at++; return map; }
        for (;;) {
          space();
          if (text[at] !== "\"") fail("expected a key");
          const key = string();
          space();
          if (text[at] !== ":") fail("expected ':'");
          at++;
          map.delete(key);
          map.set(key, value(depth + 1));
          space();
          if (text[at] === ",") { at++; continue; }
          if (text[at] === "}") { at++; return map; }
          fail("expected ',' or '}'");
        }
      }
      if (c === "[") {
        at++;
        const list = [];
        space();
        if (text[at] === "]") { at++; return list; }
        for (;;) {
          list.push(value(depth + 1));
          space();
          if (text[at] === ",") { at++; continue; }
          if (text[at] === "]") { at++; return list; }
          fail("expected ',' or ']'");
        }
      }
      if (c === "\"") return string();
      for (const [word, meaning] of [["true", true], ["false", false], ["null", null]]) {
        if (text.startsWith(word, at)) { at += word.length; return meaning; }
      }
      NUMBER.lastIndex = at;
      const found = NUMBER.exec(text);
      if (found === null) fail("expected a value");
      at += found[0].length;
      return new Num(found[0]);
    }
    const result = value(0);
    space();
    if (at !== text.length) fail("extra data");
    return result;
  }

  // Python's repr of a float (float_repr_style "short"): the shortest digits that read back,
  // in fixed notation while the decimal point falls within 16 digits, else as d.ddde+XX.
  function pythonFloat(x) {
    const sign = x < 0 || Object.is(x, -0) ? "-" : "";
    const [mantissa, exponent] = Math.abs(x).toExponential().split("e");
    const digits = mantissa.replace(".", "");
    const point = Number(exponent) + 1;
    if (point <= -4 || point > 16) {
      const e = point - 1;
      const shown = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
      return sign + shown + "e" + (e < 0 ? "-" : "+") + String(Math.abs(e)).padStart(2, "0");
    }
    if (point <= 0) return sign + "0." + "0".repeat(-point) + digits;
    if (point >= digits.length) return sign + digits + "0".repeat(point - digits.length) + ".0";
    return sign + digits.slice(0, point) + "." + digits.slice(point);
  }

  function numberText(num) {
    if (num.isInt) return BigInt(num.raw).toString();
    const x = Number(num.raw);
    if (!Number.isFinite(x)) throw new JsonError("a number JSON cannot carry");
    return pythonFloat(x);
  }

  // json.dumps(ensure_ascii=False): only '"', '\' and the control characters are escaped. A lone
  // surrogate is written as it is, as Python does: such a text is never a file's canonical line.
  function stringText(s) {
    let out = "\"";
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      const code = s.charCodeAt(i);
      if (c === "\"") out += "\\\"";
      else if (c === "\\") out += "\\\\";
      else if (c === "\n") out += "\\n";
      else if (c === "\r") out += "\\r";
      else if (c === "\t") out += "\\t";
      else if (c === "\b") out += "\\b";
      else if (c === "\f") out += "\\f";
      else if (code < 0x20) out += "\\u" + code.toString(16).padStart(4, "0");
      else out += c;
    }
    return out + "\"";
  }

  // Python sorts keys by code point; JavaScript's sort compares UTF-16 units, which puts an
  // astral character (a surrogate pair) before U+E000..U+FFFF.
  function byCodePoint(a, b) {
    const x = Array.from(a);
    const y = Array.from(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const d = x[i].codePointAt(0) - y[i].codePointAt(0);
      if (d !== 0) return d;
    }
    return x.length - y.length;
  }

  function canonical(value) {
    if (value === null) return "null";
    if (value === true) return "true";
    if (value === false) return "false";
    if (value instanceof Num) return numberText(value);
    if (typeof value === "string") return stringText(value);
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    if (value instanceof Map) {
      const keys = Array.from(value.keys()).sort(byCodePoint);
      return "{" + keys.map(function (k) { return stringText(k) + ":" + canonical(value.get(k)); }).join(",") + "}";
    }
    throw new JsonError("not a JSON value");
  }

  // The canonical text of the JSON text `text` (a test holds it to record/canonical.py's).
  function canonicalOf(text) { return canonical(parse(text)); }

  // --- bytes and hashes -----------------------------------------------------------------------

  const encoder = new TextEncoder();

  function hex(bytes) {
    return Array.from(new Uint8Array(bytes), function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }

  function fromHex(text) {
    const out = new Uint8Array(text.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
    return out;
  }

  function b64url(bytes) {
    let binary = "";
    new Uint8Array(bytes).forEach(function (b) { binary += String.fromCharCode(b); });
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  // The bytes of unpadded base64url, in its one spelling only (record/receipts.py unb64url).
  function unb64url(text) {
    if (typeof text !== "string" || !/^[A-Za-z0-9_-]*$/.test(text)) return null;
    let bytes;
    try {
      const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - text.length % 4) % 4));
      bytes = Uint8Array.from(binary, function (c) { return c.charCodeAt(0); });
    } catch (e) {
      return null;
    }
    return b64url(bytes) === text ? bytes : null;
  }

  async function sha256(bytes) { return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)); }

  function concat(a, b) {
    const out = new Uint8Array(a.length + b.length);
    out.set(a, 0);
    out.set(b, a.length);
    return out;
  }

  // --- reading a file -------------------------------------------------------------------------

  // A place in the file: the stream ("tournament", "game <id>", "bundle" or "file"), the event
  // (null for a header), the line, and why; worded as `replays verify` words it.
  function place(stream, version, line, reason) {
    return { stream: stream, version: version, line: line, reason: reason };
  }

  function placeText(p) {
    const where = p.version === null ? p.stream + ", line " + p.line : p.stream + ", event " + p.version + " (line " + p.line + ")";
    return where + ": " + p.reason;
  }

  class Broken extends Error {
    constructor(where) { super(placeText(where)); this.where = where; }
  }

  const decoder = new TextDecoder("utf-8", { fatal: true });

  // The file's lines as bytes; Broken when it is empty or its last line lacks its newline.
  function splitLines(bytes, stream) {
    if (bytes.length === 0) throw new Broken(place(stream, null, 1, "the file is empty"));
    const lines = [];
    let start = 0;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] === 0x0a) { lines.push(bytes.subarray(start, i)); start = i + 1; }
    }
    if (start !== bytes.length) {
      throw new Broken(place(stream, null, lines.length + 1, "the last line does not end with a newline"));
    }
    return lines;
  }

  // One line as a JSON object (a Map) that must be exactly its own canonical text.
  function readLine(raw, stream, version, line) {
    let text;
    try {
      text = decoder.decode(raw);
    } catch (e) {
      throw new Broken(place(stream, version, line, "not UTF-8"));
    }
    let value;
    let again;
    try {
      value = parse(text);
      if (!(value instanceof Map)) throw new Broken(place(stream, version, line, "not a JSON object"));
      again = canonical(value);
    } catch (e) {
      if (e instanceof Broken) throw e;
      throw new Broken(place(stream, version, line, "not JSON (" + e.message + ")"));
    }
    if (again !== text) throw new Broken(place(stream, version, line, "not in canonical form (sorted keys, no spaces)"));
    return value;
  }

  function isCount(v, least) { return v instanceof Num && v.isInt && Number(v.raw) >= least && Number.isSafeInteger(Number(v.raw)); }
  function isText(v) { return typeof v === "string"; }
  function isObject(v) { return v instanceof Map; }

  const EVENT_TYPES = {
    version: function (v) { return v instanceof Num && v.isInt; },
    type: isText,
    schema: function (v) { return v instanceof Num && v.isInt; },
    data: isObject,
    secret: function (v) { return v === null || isObject(v); },
    salt: function (v) { return v === null || isText(v); },
    secret_digest: isText,
    audience: Array.isArray,
    actor: isText,
    command_id: isText,
    event_id: isText,
    at: isText,
    prev_hash: isText,
    hash: isText,
  };
  const COMMAND_TYPES = {
    command: isObject,
    command_audience: Array.isArray,
    command_digest: isText,
    command_secret: function (v) { return v === null || isObject(v); },
    command_salt: function (v) { return v === null || isText(v); },
  };

  // An event line read as replays/archive.py read_event reads it.
  function readEvent(raw, stream, version, line, commands) {
    const obj = readLine(raw, stream, version, line);
    const broken = function (reason) { return new Broken(place(stream, version, line, reason)); };
    if (obj.get("kind") !== "event") throw broken("expected event " + version + ", found kind " + JSON.stringify(shown(obj.get("kind"))));
    const known = ["kind", "redacted"].concat(EVENT_FIELDS, commands === false ? [] : COMMAND_LINE_FIELDS.concat(["command_redacted"]));
    const extra = Array.from(obj.keys()).filter(function (k) { return !known.includes(k); });
    if (extra.length) throw broken("unknown fields " + extra.sort().join(", "));
    for (const name of EVENT_FIELDS) {
      if (!obj.has(name) || !EVENT_TYPES[name](obj.get(name))) throw broken(name + " is missing or has the wrong type");
    }
    if (Number(obj.get("version").raw) !== version) throw broken("numbered " + obj.get("version").raw + ", expected " + version);
    if (!obj.get("audience").every(function (s) { return s instanceof Num && s.isInt; })) throw broken("audience must list seat numbers");
    const redacted = obj.has("redacted");
    if (redacted && (obj.get("redacted") !== true || obj.get("secret") !== null || obj.get("salt") !== null)) {
      throw broken("\"redacted\" is only ever true, with a null secret and salt");
    }
    if (obj.get("salt") === null && !redacted) throw broken("a null salt belongs to a redacted event only");
    if (redacted && !obj.get("secret_digest")) throw broken("a redacted event keeps its secret_digest");
    if (obj.get("salt") && !LOWER_HEX.test(obj.get("salt"))) throw broken("a salt is written in lowercase hex");
    const commandRedacted = obj.has("command_redacted");
    if (obj.has("command") || commandRedacted) readCommand(obj, commandRedacted, broken);
    return { obj: obj, version: version, line: line, redacted: redacted, commandRedacted: commandRedacted, hash: obj.get("hash") };
  }

  // The command an event line records, checked as replays/archive.py _read_command checks it.
  function readCommand(obj, redacted, broken) {
    for (const name of COMMAND_LINE_FIELDS) {
      if (!obj.has(name) || !COMMAND_TYPES[name](obj.get(name))) throw broken(name + " is missing or has the wrong type");
    }
    if (!obj.get("command_audience").every(function (s) { return s instanceof Num && s.isInt; })) throw broken("command_audience must list seat numbers");
    const hidden = obj.get("command_secret") !== null;
    if (redacted && (obj.get("command_redacted") !== true || hidden || obj.get("command_salt") !== null)) {
      throw broken("\"command_redacted\" is only ever true, with a null command_secret and salt");
    }
    if (obj.get("command_salt") === null && !redacted) throw broken("a null command_salt belongs to a redacted command only");
    if ((hidden || redacted) !== Boolean(obj.get("command_digest"))) throw broken("a command_digest belongs to a command with a hidden part, and only to one");
    if (obj.get("command_salt") && !LOWER_HEX.test(obj.get("command_salt"))) throw broken("a command_salt is written in lowercase hex");
  }

  function shown(v) { return v === undefined ? null : v instanceof Num ? v.raw : v instanceof Map ? "{...}" : v; }

  // The first fault of a stream's chain, as replays/tournament_audit.py chain_fault finds it:
  // each hash recomputed over the event's canonical hashed fields, each shown secret against its
  // salted digest, each link to the hash before. Counts what it could and could not open.
  async function checkChain(events, stream, tally) {
    let previous = ZERO_HASH;
    for (const event of events) {
      const obj = event.obj;
      const hashed = new Map();
      for (const name of HASHED_FIELDS) hashed.set(name, obj.get(name));
      if (obj.has("command")) for (const name of COMMAND_FIELDS) hashed.set(name, obj.get(name));
      const body = encoder.encode(canonical(hashed));
      const computed = hex(await sha256(body));
      if (computed !== event.hash) {
        return place(stream, event.version, event.line, "hash mismatch: the event's content is not what was hashed (it hashes to " + computed + ", the file says " + event.hash + ")");
      }
      const secret = obj.get("secret");
      if (secret !== null) {
        const digest = hex(await sha256(concat(fromHex(obj.get("salt")), encoder.encode(canonical(secret)))));
        if (digest !== obj.get("secret_digest")) {
          return place(stream, event.version, event.line, "digest mismatch: the secret and salt are not what the digest commits to");
        }
        tally.opened += 1;
      } else if (event.redacted) {
        tally.withheld += 1;
      } else if (obj.get("salt") !== "" || obj.get("secret_digest") !== "") {
        return place(stream, event.version, event.line, "digest mismatch: an event without a secret has an empty salt and digest");
      }
      if (obj.has("command") && obj.get("command_secret") !== null) {
        const digest = hex(await sha256(concat(fromHex(obj.get("command_salt")), encoder.encode(canonical(obj.get("command_secret"))))));
        if (digest !== obj.get("command_digest")) {
          return place(stream, event.version, event.line, "digest mismatch: the command's hidden part and salt are not what its digest commits to");
        }
        tally.opened += 1;
      } else if (event.commandRedacted) {
        tally.withheld += 1;
      } else if (obj.has("command") && obj.get("command_salt") !== "") {
        return place(stream, event.version, event.line, "digest mismatch: a command that hides nothing has an empty salt");
      }
      if (obj.get("prev_hash") !== previous) {
        return place(stream, event.version, event.line, "broken link: prev_hash is not the previous event's hash");
      }
      previous = event.hash;
      tally.events += 1;
    }
    return null;
  }

  function streamIdOf(events) {
    const command = events.length ? events[0].obj.get("command_id") : "";
    return command.startsWith(CREATED_PREFIX) ? command.slice(CREATED_PREFIX.length) : null;
  }

  // A game file's header, held against its first event (archive._check_header).
  function checkGameHeader(header, events, stream, offset, annotations) {
    const broken = function (reason) { return new Broken(place(stream, null, offset, reason)); };
    const first = events[0].obj;
    if (first.get("type") !== "GameCreated") {
      throw new Broken(place(stream, 1, offset + 1, "the first event is " + first.get("type") + ", not GameCreated"));
    }
    const setup = first.get("data");
    const seats = setup.get("seats");
    const complete = !events.some(function (e) { return e.redacted; });
    const expected = {
      format: GAME_FORMAT, format_version: header.get("format_version"), game: setup.has("game") ? setup.get("game") : null,
      options: setup.get("options") instanceof Map && setup.get("options").size ? setup.get("options") : new Map(),
      mode: setup.has("mode") ? setup.get("mode") : "casual",
      seats: Array.isArray(seats) ? seats.map(function (s) { return s instanceof Map && s.has("name") ? s.get("name") : null; }) : [],
      setup: setup, complete: complete, events: new Num(String(events.length)), annotations: new Num(String(annotations)),
    };
    for (const name of GAME_HEADER_FIELDS) {
      if (!header.has(name) || canonical(header.get(name)) !== canonical(expected[name])) {
        throw broken("the header's " + name + " does not match the events");
      }
    }
    const allowed = GAME_HEADER_FIELDS.concat(["keys"], complete ? [] : ["redacted_for"]);
    const extra = Array.from(header.keys()).filter(function (k) { return !allowed.includes(k); });
    if (extra.length) throw broken("unknown header fields " + extra.sort().join(", "));
  }

  function keySetOf(header, stream, line) {
    if (!header.has("keys")) return null;
    const set = header.get("keys");
    if (!(set instanceof Map) || set.size !== 1 || !Array.isArray(set.get("keys"))) {
      throw new Broken(place(stream, null, line, "the header's keys is not a JWK set ({\"keys\": [...]})"));
    }
    return set;
  }

  // A game file: its header, its events, its annotations (outside the chain).
  function readGameFile(lines) {
    const stream = "file";
    const header = readLine(lines[0], stream, null, 1);
    if (header.get("format") !== GAME_FORMAT) throw new Broken(place(stream, null, 1, "not a game file (" + GAME_FORMAT + ") nor a tournament bundle (" + BUNDLE_FORMAT + ")"));
    if (!GAME_FORMATS.includes(canonical(header.get("format_version") || null))) {
      throw new Broken(place(stream, null, 1, "format_version " + shown(header.get("format_version")) + " is not read here: export the game again from the service"));
    }
    if (!isCount(header.get("events"), 1) || !isCount(header.get("annotations"), 0)) {
      throw new Broken(place(stream, null, 1, "the header's events and annotations are not counts"));
    }
    const count = Number(header.get("events").raw);
    if (lines.length - 1 < count) {
      throw new Broken(place(stream, lines.length, lines.length + 1, "the file ends before event " + lines.length + " of " + count));
    }
    const events = [];
    const commands = canonical(header.get("format_version")) !== "2";
    for (let v = 1; v <= count; v++) events.push(readEvent(lines[v], stream, v, v + 1, commands));
    let annotations = 0;
    for (let n = count + 1; n < lines.length; n++) {
      const note = readLine(lines[n], stream, null, n + 1);
      if (note.get("kind") !== "annotation" || note.size !== 2 || !(note.get("annotation") instanceof Map)) {
        throw new Broken(place(stream, null, n + 1, "expected an annotation line ({\"kind\":\"annotation\",\"annotation\":{...}})"));
      }
      annotations += 1;
    }
    if (annotations !== Number(header.get("annotations").raw)) {
      throw new Broken(place(stream, null, 1, "the header announces " + header.get("annotations").raw + " annotations, the file holds " + annotations));
    }
    checkGameHeader(header, events, stream, 1, annotations);
    const named = streamIdOf(events);
    const streams = [{ kind: "game", id: named, label: named === null ? "the game" : "game " + named, place: stream, events: events }];
    return { kind: "game", keys: keySetOf(header, stream, 1), streams: streams, annotations: annotations };
  }

  // A tournament bundle (replays/bundle.py): its header, the tournament's events, each game file.
  function readBundle(lines) {
    const header = readLine(lines[0], "bundle", null, 1);
    const games = header.get("games");
    const allowed = ["events", "format", "format_version", "games", "keys"];
    const wellFormed = canonical(header.get("format_version") || null) === "1"
      && Array.from(header.keys()).every(function (k) { return allowed.includes(k); })
      && isCount(header.get("events"), 1) && Array.isArray(games)
      && games.every(function (g) { return g instanceof Map && g.size === 2 && isText(g.get("game_id")) && isCount(g.get("events"), 1); });
    if (!wellFormed) throw new Broken(place("bundle", null, 1, "the header holds format, format_version, events, games and a JWK set in keys only"));
    const keys = keySetOf(header, "bundle", 1);
    const count = Number(header.get("events").raw);
    const tournament = [];
    let line = 2;
    for (let v = 1; v <= count; v++, line++) {
      if (line > lines.length) throw new Broken(place("tournament", v, line, "the file ends before this event"));
      tournament.push(readEvent(lines[line - 1], "tournament", v, line));
    }
    const tid = streamIdOf(tournament);
    const streams = [{ kind: "tournament", id: tid, label: tid === null ? "the tournament" : "tournament " + tid, place: "tournament", events: tournament }];
    for (const game of games) {
      const gid = game.get("game_id");
      const stream = "game " + gid;
      const events = Number(game.get("events").raw);
      if (line + events > lines.length) throw new Broken(place(stream, null, line, "the file ends before this game's last event"));
      const gameHeader = readLine(lines[line - 1], stream, null, line);
      if (gameHeader.get("format") !== GAME_FORMAT || canonical(gameHeader.get("events") || null) !== String(events)
          || !GAME_FORMATS.includes(canonical(gameHeader.get("format_version") || null))) {
        throw new Broken(place(stream, null, line, "not this game's header, announcing " + events + " events"));
      }
      const commands = canonical(gameHeader.get("format_version")) !== "2";
      const read = [];
      for (let v = 1; v <= events; v++) read.push(readEvent(lines[line + v - 1], stream, v, line + v, commands));
      checkGameHeader(gameHeader, read, stream, line, 0);
      streams.push({ kind: "game", id: gid, label: stream, place: stream, events: read });
      line += 1 + events;
    }
    if (line <= lines.length) throw new Broken(place("bundle", null, line, "a line after the last game"));
    const assigned = tournament.filter(function (e) { return e.obj.get("type") === "GameAssigned"; })
      .map(function (e) { return String(shown(e.obj.get("data").get("game_id"))); });
    if (canonical(assigned) !== canonical(games.map(function (g) { return g.get("game_id"); }))) {
      throw new Broken(place("bundle", null, 1, "the header's games are not the games the tournament assigned"));
    }
    return { kind: "bundle", keys: keys, streams: streams, annotations: 0 };
  }

  function formatOf(firstLine) {
    try {
      const header = parse(decoder.decode(firstLine));
      return header instanceof Map ? header.get("format") : null;
    } catch (e) {
      return null;
    }
  }

  // --- keys and receipts ----------------------------------------------------------------------

  // Ed25519 in WebCrypto: Chromium has it from version 137 (Debian's is 156). Without it the
  // signatures are reported unchecked; the receipts' hashes are still held against the file.
  async function ed25519Available() {
    try {
      await crypto.subtle.importKey("raw", new Uint8Array(32), { name: "Ed25519" }, false, ["verify"]);
      return true;
    } catch (e) {
      return e && e.name !== "NotSupportedError";
    }
  }

  // The Ed25519 keys of a JWK set by their RFC 7638 thumbprint (record/receipts.py public_keys):
  // a `kid` that is not the key's thumbprint is not believed.
  async function publicKeys(set, canVerify) {
    const found = new Map();
    const members = set instanceof Map && Array.isArray(set.get("keys")) ? set.get("keys") : [];
    for (const jwk of members) {
      if (!(jwk instanceof Map) || jwk.get("kty") !== "OKP" || jwk.get("crv") !== "Ed25519") continue;
      const raw = unb64url(jwk.get("x"));
      if (raw === null || raw.length !== 32) continue;
      const required = new Map([["crv", "Ed25519"], ["kty", "OKP"], ["x", jwk.get("x")]]);
      const kid = b64url(await sha256(encoder.encode(canonical(required))));
      found.set(kid, canVerify ? await crypto.subtle.importKey("raw", raw, { name: "Ed25519" }, false, ["verify"]) : raw);
    }
    return found;
  }

  // --- players' signatures (record/seat_keys.py) ----------------------------------------------

  const SEAT_KEY_ALGORITHMS = {
    EC: { importAs: { name: "ECDSA", namedCurve: "P-256" }, verifyAs: { name: "ECDSA", hash: "SHA-256" }, members: ["crv", "kty", "x", "y"] },
    OKP: { importAs: { name: "Ed25519" }, verifyAs: { name: "Ed25519" }, members: ["crv", "kty", "x"] },
  };

  async function seatKey(jwk) {
    const algorithm = jwk instanceof Map ? SEAT_KEY_ALGORITHMS[jwk.get("kty")] : undefined;
    if (algorithm === undefined) return null;
    const plain = {};
    for (const name of algorithm.members) plain[name] = jwk.get(name);
    try {
      return { key: await crypto.subtle.importKey("jwk", plain, algorithm.importAs, false, ["verify"]), verifyAs: algorithm.verifyAs };
    } catch (e) {
      return null;
    }
  }

  // Each command of a seat holding a key (from the setup, or SeatKeyRegistered) against the
  // seat's signature over {game_id, version before it, command}, as the referee replay checks
  // it; a hidden command's signature is hidden with it and counted as withheld.
  async function checkSeatSignatures(stream, tally) {
    const keys = new Map();
    const events = stream.events;
    const gameId = streamIdOf(events);  // as the referee replay reads it: the id the service gave
    const seats = events.length ? events[0].obj.get("data").get("seats") : null;
    if (Array.isArray(seats)) {
      for (let n = 0; n < seats.length; n++) {
        if (seats[n] instanceof Map && seats[n].has("public_key")) keys.set(String(n), seats[n].get("public_key"));
      }
    }
    for (const event of events) {
      const obj = event.obj;
      const command = obj.has("command") ? obj.get("command") : null;
      if (command instanceof Map && command.get("seat") instanceof Num && keys.has(command.get("seat").raw)) {
        const seat = command.get("seat").raw;
        const part = obj.get("command_secret") instanceof Map ? obj.get("command_secret") : command;
        if (event.commandRedacted) {
          tally.withheld += 1;
        } else {
          const imported = await seatKey(keys.get(seat));
          if (imported === null) return place(stream.place, event.version, event.line, "seat " + seat + "'s key is no P-256 or Ed25519 key this browser can read");
          const signed = new Map([
            ["game_id", gameId],
            ["version", new Num(String(event.version - 1))],
            ["command", new Map([["type", command.get("type")], ["seat", command.get("seat")], ["args", part.get("args")]])],
          ]);
          const sig = part.has("signature") && isText(part.get("signature")) ? unb64url(part.get("signature")) : null;
          const ok = sig !== null && gameId !== null
            && await crypto.subtle.verify(imported.verifyAs, imported.key, sig, encoder.encode(canonical(signed)));
          if (!ok) {
            const why = sig === null ? "the command carries no signature" : "the signature does not verify under the seat's key";
            return place(stream.place, event.version, event.line, "seat " + seat + ": " + why);
          }
          tally.checked += 1;
        }
      }
      if (obj.get("type") === "SeatKeyRegistered") {
        const data = obj.get("data");
        if (data instanceof Map && data.get("seat") instanceof Num) keys.set(data.get("seat").raw, data.get("key"));
      }
    }
    return null;
  }

  const RECEIPT_FIELDS = ["version", "hash", "at", "kid", "sig"];

  function receiptFormFault(r) {
    if (!(r instanceof Map)) return "not a JSON object";
    const ids = ["game_id", "tournament_id"].filter(function (k) { return r.has(k); });
    const keys = Array.from(r.keys()).sort();
    if (ids.length !== 1 || canonical(keys) !== canonical([ids[0]].concat(RECEIPT_FIELDS).sort())) {
      return "a receipt holds game_id or tournament_id, version, hash, at, kid and sig only";
    }
    if (!isCount(r.get("version"), 1)) return "its version is not a version (1, 2, 3, ...)";
    if (![ids[0], "hash", "at", "kid", "sig"].every(function (k) { return isText(r.get(k)); })) {
      return "its id, hash, at, kid and sig are strings";
    }
    return null;
  }

  // Every receipt of every file; `faults` gets each line that is no receipt.
  function readReceipts(files, faults) {
    const held = [];
    for (const file of files) {
      let text;
      try {
        text = decoder.decode(file.bytes);
      } catch (e) {
        faults.push("receipts " + file.name + ": not UTF-8");
        continue;
      }
      text.split(/\r?\n/).forEach(function (line, index) {
        if (!line.trim()) return;
        const where = file.name + " line " + (index + 1);
        let value;
        try {
          value = parse(line);
        } catch (e) {
          faults.push("receipt " + where + ": not JSON");
          return;
        }
        const fault = receiptFormFault(value);
        if (fault !== null) faults.push("receipt " + where + ": " + fault);
        else held.push({ where: where, receipt: value });
      });
    }
    return held;
  }

  async function signatureFault(receipt, keys, canVerify) {
    const key = keys.get(receipt.get("kid"));
    if (key === undefined) return "signed by key " + receipt.get("kid") + ", which is not among the published keys";
    if (!canVerify) return null;
    const sig = unb64url(receipt.get("sig"));
    const signed = new Map(Array.from(receipt).filter(function (kv) { return kv[0] !== "sig"; }));
    const ok = sig !== null && sig.length === 64
      && await crypto.subtle.verify({ name: "Ed25519" }, key, sig, encoder.encode(canonical(signed)));
    return ok ? null : "the signature does not verify: the service did not sign this receipt";
  }

  function streamFault(receipt, stream) {
    const version = Number(receipt.get("version").raw);
    if (version > stream.events.length) {
      return "truncated: the receipt vouches for event " + version + ", the file ends at event " + stream.events.length;
    }
    const held = stream.events[version - 1].hash;
    if (held !== receipt.get("hash")) return "rewritten: event " + version + " hashes to " + held + ", the receipt to " + receipt.get("hash");
    return null;
  }

  // Each ResultRecorded and ResultCorrected of a bundle's tournament against its game's own end
  // (replays/tournament_audit.py _mismatches, less the scoring, which needs the rules). The event
  // with which each game's rules end it is its module's (GameModule.end_event): the page carries
  // them as data (replays/audit_page.py), by game name; the platform's ends are every game's.
  const PLATFORM_ENDINGS = ["GameForfeited", "GameResigned", "GameAborted"];

  function gameEnds() {
    const block = typeof document === "undefined" ? null : document.getElementById("audit-game-ends");
    try { return block ? JSON.parse(block.textContent) : {}; } catch (e) { return {}; }
  }

  // The ends of a game's log (`events`, from its GameCreated) and those of them with a result.
  function endingsOf(events) {
    const first = events.length ? events[0].obj : null;
    const data = first && first.get("type") === "GameCreated" ? first.get("data") : null;
    const game = data && typeof data.get === "function" && data.has("game") ? data.get("game") : null;
    const own = Object.prototype.hasOwnProperty.call(gameEnds(), game) ? [gameEnds()[game]] : [];
    return { all: new Set(own.concat(PLATFORM_ENDINGS)), result: new Set(own.concat(["GameResigned"])), own: own[0] };
  }

  function resultFaults(streams) {
    const tournament = streams[0];
    const games = new Map(streams.slice(1).map(function (s) { return [s.id, s.events]; }));
    const found = { faults: [], results: 0, recorded: 0 };
    for (const event of tournament.events) {
      const type = event.obj.get("type");
      if (type !== "ResultRecorded" && type !== "ResultCorrected") continue;
      const data = event.obj.get("data");
      const gameId = data.get("game_id");
      const events = games.get(gameId) || [];
      // The game's own end with a result: its rules' end, or GameResigned (shaped alike), as
      // domain/ending.py result_end; a forfeit or an abort carries none.
      const ends = endingsOf(events);
      const last = events.slice().reverse().find(function (e) { return ends.all.has(e.obj.get("type")); });
      const end = last && ends.result.has(last.obj.get("type")) ? last : undefined;
      const finalHash = data.has("final_hash") ? data.get("final_hash") : null;
      let reason = null;
      if (end === undefined) {
        if (type === "ResultRecorded" || finalHash !== null) reason = "the game has no " + (ends.own || "end with a result");
      } else if (finalHash !== end.hash) {
        reason = "final_hash " + shown(finalHash) + " is not the hash of the game's " + end.obj.get("type") + " (event " + end.version + ", " + end.hash + ")";
      } else if (type === "ResultRecorded" && canonical(data.has("game_end") ? data.get("game_end") : null) !== canonical(end.obj.get("data"))) {
        reason = "game_end is not the data of the game's " + end.obj.get("type") + " (event " + end.version + ")";
      }
      found.results += 1;
      if (type === "ResultRecorded") found.recorded += 1;
      if (reason !== null) found.faults.push(placeText(place(tournament.place, event.version, event.line, "game " + shown(gameId) + ": " + reason)));
    }
    return found;
  }

  // --- the audit ------------------------------------------------------------------------------

  function plural(n, one, many) { return n + " " + (n === 1 ? one : many || one + "s"); }

  // The audit of `file` ({name, bytes}) against `receiptFiles` ([{name, bytes}]), with `keyFile`
  // (a saved JWK set, or null: the file's own). The report lists what was checked, what was not,
  // and every fault, the first one first.
  async function audit(file, receiptFiles, keyFile) {
    const report = { ok: false, kind: null, faults: [], checked: [], unchecked: [], receipts: { checked: 0, elsewhere: 0 } };
    const bytes = file.bytes;
    let read;
    try {
      const lines = splitLines(bytes, "file");
      read = formatOf(lines[0]) === BUNDLE_FORMAT ? readBundle(lines) : readGameFile(lines);
    } catch (e) {
      if (!(e instanceof Broken)) throw e;
      report.faults.push(placeText(e.where));
      report.unchecked.push("The file does not read as a game file or a tournament bundle, so nothing after its first fault was checked.");
      return report;
    }
    report.kind = read.kind;
    const lineCount = read.streams.reduce(function (n, s) { return n + s.events.length + 1; }, 0) + read.annotations;
    report.checked.push("Form: every line of the " + (read.kind === "bundle" ? "bundle" : "game file") + " (" + plural(lineCount, "line") + ") is canonical JSON, byte for byte; the headers agree with the events they announce.");
    let withheld = 0;
    for (const stream of read.streams) {
      const tally = { events: 0, opened: 0, withheld: 0 };
      const fault = await checkChain(stream.events, stream.place, tally);
      withheld += tally.withheld;
      if (fault !== null) {
        report.faults.push(placeText(fault));
        report.checked.push(stream.label + ": the chain holds up to event " + tally.events + " of " + stream.events.length + "; event " + fault.version + " is at fault.");
        continue;
      }
      const secrets = tally.opened || tally.withheld
        ? "; " + plural(tally.opened, "secret") + " opened against " + (tally.opened === 1 ? "its salted digest" : "their salted digests") + (tally.withheld ? ", " + plural(tally.withheld, "secret") + " withheld from this file" : "")
        : "";
      report.checked.push(stream.label + ": " + plural(stream.events.length, "event") + ", every hash recomputed and every link followed" + secrets + ".");
    }
    if (report.faults.length === 0) {
      const signing = { checked: 0, withheld: 0 };
      for (const stream of read.streams.filter(function (s) { return s.kind === "game"; })) {
        const fault = await checkSeatSignatures(stream, signing);
        if (fault !== null) report.faults.push(placeText(fault));
      }
      if (signing.checked) {
        report.checked.push("Players' signatures: " + plural(signing.checked, "command") + " of seats holding a key, each signed by that seat's key for its game and version: the players made those moves.");
      }
      if (signing.withheld) report.unchecked.push(plural(signing.withheld, "signed command") + " hidden from this file: their signatures are hidden with them.");
    }
    if (read.kind === "bundle" && report.faults.length === 0) {
      const linked = resultFaults(read.streams);
      report.faults.push.apply(report.faults, linked.faults);
      if (linked.results) {
        report.checked.push("Results: each of the " + plural(linked.results, "result") + " the tournament recorded or corrected names its game's GameEnded by hash" + (linked.recorded ? ", and each recorded one carries that event's data" : "") + ": the tournament's chain commits to every game's end.");
      }
    }
    if (withheld) {
      report.unchecked.push(plural(withheld, "secret") + " (cards a spectator may not see yet) are withheld from this file: the chain covers their salted digests, but what they hide cannot be opened here.");
    }
    if (read.annotations) report.unchecked.push(plural(read.annotations, "annotation") + ": commentary, outside the hash chain.");

    // Receipts.
    const canVerify = await ed25519Available();
    let keySet = read.keys;
    let keySource = "the keys the file publishes";
    if (keyFile) {
      try {
        keySet = parse(decoder.decode(keyFile.bytes).trim());
        keySource = "the key set " + keyFile.name;
      } catch (e) {
        report.faults.push("keys " + keyFile.name + ": not a JSON key set");
        keySet = null;
      }
    }
    if (!receiptFiles.length) {
      report.unchecked.push("No receipts were given: the chain proves the file was not changed carelessly, not that whoever re-sealed every hash told the truth. Drop the receipts your browser kept (the download on the game's or tournament's page).");
    } else {
      const receiptFaults = [];
      const held = readReceipts(receiptFiles, receiptFaults);
      const keys = await publicKeys(keySet, canVerify);
      for (const one of held) {
        const kind = one.receipt.has("game_id") ? "game" : "tournament";
        const id = one.receipt.get(kind + "_id");
        const stream = read.streams.find(function (s) { return s.kind === kind && s.id === id; });
        if (stream === undefined) { report.receipts.elsewhere += 1; continue; }
        report.receipts.checked += 1;
        const reason = await signatureFault(one.receipt, keys, canVerify) || streamFault(one.receipt, stream);
        if (reason !== null) receiptFaults.push("receipt " + one.where + " (" + kind + " " + id + ", event " + one.receipt.get("version").raw + "): " + reason);
      }
      report.faults.push.apply(report.faults, receiptFaults);
      const aside = report.receipts.elsewhere ? "; " + plural(report.receipts.elsewhere, "receipt") + " of other games or tournaments left aside" : "";
      if (report.receipts.checked) {
        report.checked.push("Receipts: " + report.receipts.checked + " checked" + (canVerify ? ": each signature against " + keySource : ": each one's key is among " + keySource) + ", and the file must hold each one's hash at its version" + aside + ".");
      } else if (held.length) {
        const names = read.streams.map(function (s) { return s.label; }).join(", ");
        report.faults.push("none of the " + held.length + " receipts is for this file's streams (" + names + ")");
      }
      if (!canVerify) {
        report.unchecked.push("Signatures: this browser's WebCrypto has no Ed25519, so no receipt's signature was verified (only that its key is published). replays verify FILE --receipts PATH checks them.");
      } else if (!keyFile) {
        report.unchecked.push("The keys are the file's own: an operator who rewrote the file could swap them. Keep a copy of the service's key set (/.well-known/archipelago/keys) and drop it as the key set.");
      }
    }
    report.unchecked.push("The rules: whether each event is what the rules make of the command before it (the referee replay), each fold, pairing and ranking, each recorded result against its game's end, and that each tournament game's seats hold the keys its entrants registered. These run in the command line tool: replays verify FILE --receipts PATH.");
    report.ok = report.faults.length === 0;
    return report;
  }

  // --- the page -------------------------------------------------------------------------------

  function readFile(file) {
    return file.arrayBuffer().then(function (buffer) { return { name: file.name, bytes: new Uint8Array(buffer) }; });
  }

  // What a dropped file holds: a receipt per line, a key set (on one line or pretty-printed),
  // or else the file to audit.
  function roleOf(bytes) {
    let text;
    try {
      text = decoder.decode(bytes);
    } catch (e) {
      return "file";
    }
    const isKeySet = function (v) { return v instanceof Map && v.size === 1 && Array.isArray(v.get("keys")); };
    for (const candidate of [text.split("\n")[0], text]) {
      try {
        const value = parse(candidate.trim());
        if (value instanceof Map && value.has("sig") && value.has("kid")) return "receipts";
        if (isKeySet(value)) return "keys";
      } catch (e) {
        continue;
      }
    }
    return "file";
  }

  function start() {
    const root = document.getElementById("audit");
    if (!root) return;
    const chosen = { file: null, receipts: [], keys: null };
    const fileInput = document.getElementById("audit-file");
    const receiptsInput = document.getElementById("audit-receipts");
    const keysInput = document.getElementById("audit-keys");
    const chosenText = document.getElementById("audit-chosen");
    const result = document.getElementById("audit-result");

    function list(id, items) {
      const ul = document.getElementById(id);
      ul.replaceChildren.apply(ul, items.map(function (text) {
        const li = document.createElement("li");
        li.textContent = text;
        return li;
      }));
    }

    function describeChoice() {
      const parts = [chosen.file ? "file: " + chosen.file.name : "no file yet"];
      if (chosen.receipts.length) parts.push("receipts: " + chosen.receipts.map(function (f) { return f.name; }).join(", "));
      if (chosen.keys) parts.push("key set: " + chosen.keys.name);
      chosenText.textContent = parts.join(" · ");
    }

    // Files arrive one input at a time: only the newest run shows its report.
    let runs = 0;
    async function run() {
      describeChoice();
      if (!chosen.file) return;
      const mine = ++runs;
      result.hidden = false;
      result.dataset.state = "running";
      document.getElementById("audit-verdict").textContent = "Checking " + chosen.file.name + " ...";
      let report;
      try {
        report = await audit(chosen.file, chosen.receipts, chosen.keys);
      } catch (e) {
        report = { ok: false, faults: ["the page could not finish: " + e], checked: [], unchecked: [] };
      }
      if (mine !== runs) return;
      document.getElementById("audit-verdict").textContent = report.ok
        ? "ok: " + chosen.file.name + " holds every check this page makes."
        : "Not sound: " + chosen.file.name + (report.faults.length > 1 ? " (" + plural(report.faults.length, "fault") + ")" : "");
      document.getElementById("audit-fault").textContent = report.ok ? "" : "The first fault: " + report.faults[0];
      list("audit-faults", report.faults.slice(1));
      list("audit-checked", report.checked);
      list("audit-unchecked", report.unchecked);
      result.dataset.state = report.ok ? "ok" : "fault";
    }

    async function take(files, role) {
      const read = await Promise.all(Array.from(files).map(readFile));
      for (const one of read) {
        const as = role || roleOf(one.bytes);
        if (as === "receipts") chosen.receipts.push(one);
        else if (as === "keys") chosen.keys = one;
        else chosen.file = one;
      }
      await run();
    }

    fileInput.addEventListener("change", function () { if (fileInput.files.length) take(fileInput.files, "file"); });
    receiptsInput.addEventListener("change", function () {
      chosen.receipts = [];
      take(receiptsInput.files, "receipts");
    });
    keysInput.addEventListener("change", function () { if (keysInput.files.length) take(keysInput.files, "keys"); });
    document.getElementById("audit-clear").addEventListener("click", function () {
      chosen.file = null;
      chosen.receipts = [];
      chosen.keys = null;
      fileInput.value = receiptsInput.value = keysInput.value = "";
      result.hidden = true;
      delete result.dataset.state;
      describeChoice();
    });
    const zone = document.getElementById("audit-drop");
    ["dragenter", "dragover"].forEach(function (name) {
      zone.addEventListener(name, function (event) { event.preventDefault(); zone.classList.add("over"); });
    });
    ["dragleave", "drop"].forEach(function (name) {
      zone.addEventListener(name, function () { zone.classList.remove("over"); });
    });
    zone.addEventListener("drop", function (event) {
      event.preventDefault();
      if (event.dataTransfer && event.dataTransfer.files.length) take(event.dataTransfer.files, null);
    });
    root.dataset.ready = "true";
  }

  window.ArchipelagoAudit = { audit: audit, canonicalOf: canonicalOf, parse: parse, HASHED_FIELDS: HASHED_FIELDS };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

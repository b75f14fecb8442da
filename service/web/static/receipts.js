// The receipts the service signs in its answers to this browser's moves and registrations are
// the player's evidence against a later rewrite of the record (docs/replays.md): each is kept in
// IndexedDB, for good, and the page's download link hands over those of its game (or tournament
// and its games) as JSON Lines, the form `replays verify --receipts` reads.
(function () {
  "use strict";
  const DB = "archipelago-receipts";
  const STORE = "receipts";

  function request(req) {
    return new Promise(function (resolve, reject) {
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
  }

  function open() {
    const req = indexedDB.open(DB, 1);
    // A signature is unique to its receipt: a receipt answered twice (a retry) is kept once.
    req.onupgradeneeded = function () { req.result.createObjectStore(STORE, { keyPath: "sig" }); };
    return request(req);
  }

  async function withStore(mode, work) {
    const db = await open();
    try {
      const tx = db.transaction(STORE, mode);
      const result = await request(work(tx.objectStore(STORE)));
      await new Promise(function (resolve, reject) {
        tx.oncomplete = resolve;
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
      return result;
    } finally {
      db.close();
    }
  }

  const links = [];

  // A browser without storage (IndexedDB refused) still plays: the receipt is then lost.
  async function keep(receipt) {
    if (!receipt || typeof receipt.sig !== "string") return;
    try {
      await withStore("readwrite", function (store) { return store.put(receipt); });
      await Promise.all(links.map(refreshLink));
    } catch (failure) {
      console.warn("receipt not kept", failure);
    }
  }

  function all() {
    return withStore("readonly", function (store) { return store.getAll(); });
  }

  function order(a, b) {
    const one = a.tournament_id || a.game_id;
    const other = b.tournament_id || b.game_id;
    if (one !== other) return one < other ? -1 : 1;
    return a.version - b.version || (a.at < b.at ? -1 : a.at > b.at ? 1 : 0);
  }

  async function refreshLink(entry) {
    const mine = (await all()).filter(entry.belongs).sort(order);
    const text = mine.map(function (r) { return JSON.stringify(r) + "\n"; }).join("");
    // A data: URL, not a blob: one: it needs no revoking, and the page's CSP lets nothing read a
    // blob: URL back (connect-src 'self'). A receipt is about 250 bytes.
    entry.link.href = "data:application/x-ndjson;charset=utf-8," + encodeURIComponent(text);
    entry.link.dataset.count = String(mine.length);
    entry.count.textContent = String(mine.length);
    entry.link.closest("[data-receipts]").hidden = mine.length === 0;
  }

  // `link` downloads every kept receipt for which `belongs` holds; its `count` tells how many.
  function offer(link, count, belongs) {
    const entry = { link: link, count: count, belongs: belongs };
    links.push(entry);
    return refreshLink(entry);
  }

  window.ArchipelagoReceipts = { keep: keep, all: all, offer: offer };
})();

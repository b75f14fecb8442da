// The lobby's join form: an invite link is opened as it is, its token still in the fragment
// (a form submission would drop the fragment).
(function () {
  "use strict";
  const join = document.getElementById("join");
  if (!join) return;
  join.addEventListener("submit", function (event) {
    event.preventDefault();
    const error = document.getElementById("join-error");
    let link;
    try {
      link = new URL(join.elements.link.value, location.href);
    } catch (failure) {
      link = null;
    }
    if (!link || link.origin !== location.origin || !/^\/play\/[^/]+$/.test(link.pathname)) {
      error.textContent = "That is not an invite link of this site (…/play/<game>#token=…).";
      return;
    }
    location.assign(link.href);
  });
})();

// The new-game and new-tournament forms: show the options of the chosen game only, and a level
// only for computer seats.
(function () {
  "use strict";
  const form = document.getElementById("new-game") || document.getElementById("new-tournament");
  if (!form) return;
  const game = form.querySelector("select[name=game]");
  function sync() {
    form.querySelectorAll("[data-for-game]").forEach(function (el) {
      const on = el.dataset.forGame === game.value;
      el.hidden = !on;
      el.querySelectorAll("input, select").forEach(function (input) { input.disabled = !on; });
    });
    form.querySelectorAll(".seat-row").forEach(function (row) {
      const kind = row.querySelector("select[name^=seat-]").value;
      const level = row.querySelector("select[name^=level-]");
      level.disabled = kind === "human" || kind === "none" || kind === "open";
    });
  }
  form.addEventListener("change", sync);
  sync();
})();

// Copy buttons beside a link's field (invite links, the seat's own link): the clipboard when the
// browser lets the page write it, else the field is selected for the person to copy.
(function () {
  "use strict";
  document.addEventListener("click", async function (event) {
    const button = event.target.closest("button.copy[data-copy]");
    if (!button) return;
    const field = document.getElementById(button.dataset.copy);
    const status = document.querySelector('[data-copied-for="' + button.dataset.copy + '"]');
    if (!field) return;
    let copied = false;
    try {
      await navigator.clipboard.writeText(field.value);
      copied = true;
    } catch (refused) {
      field.select();
      copied = document.execCommand && document.execCommand("copy");
    }
    if (status) status.textContent = copied ? "Copied." : "Selected: copy it with Ctrl+C (\u2318C).";
  });
})();

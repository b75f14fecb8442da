// The lobby's form: show the options of the chosen game only, and a level only for computer seats.
(function () {
  "use strict";
  const form = document.getElementById("new-game");
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
      level.disabled = kind === "human" || kind === "none";
    });
  }
  form.addEventListener("change", sync);
  sync();
})();

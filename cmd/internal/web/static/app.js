// canon serve: keeps the page live. The server tells of each sync over
// server-sent events (/events); the page then fetches itself again and
// swaps in the new content, without a reload. No inline script anywhere:
// the Content-Security-Policy allows this file alone.
(function () {
  "use strict";

  function ago(iso) {
    var t = Date.parse(iso);
    if (isNaN(t)) { return ""; }
    var s = Math.max(0, Math.round((Date.now() - t) / 1000));
    if (s < 60) { return s + " s ago"; }
    if (s < 3600) { return Math.round(s / 60) + " min ago"; }
    if (s < 172800) { return Math.round(s / 3600) + " h ago"; }
    return Math.round(s / 86400) + " days ago";
  }

  function tick() {
    var el = document.querySelector("#fresh time");
    if (el) { el.textContent = ago(el.getAttribute("datetime")); }
  }

  function setLive(text, cls) {
    var el = document.getElementById("live");
    if (el) { el.textContent = text; el.className = "live " + cls; }
  }

  var fetching = false, again = false, deferred = false;
  function refresh() {
    var m = document.getElementById("move-menu");
    if (m && !m.hidden) { deferred = true; return; } // not under an open menu: when it closes
    if (fetching) { again = true; return; }
    fetching = true;
    fetch(location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        ["content", "fresh"].forEach(function (id) {
          var fresh = doc.getElementById(id), old = document.getElementById(id);
          if (fresh && old) { old.replaceWith(document.importNode(fresh, true)); }
        });
        document.body.setAttribute("data-refreshed", String(Date.now()));
        refocus();
        tick();
        setLive("live", "on");
      })
      .catch(function () { setLive("could not refresh", "off"); })
      .finally(function () {
        fetching = false;
        if (again) { again = false; refresh(); }
      });
  }

  function listen() {
    if (!window.EventSource) { setLive("not live (no EventSource)", "off"); return; }
    var es = new EventSource("/events");
    es.addEventListener("fresh", function () { setLive("live", "on"); });
    es.addEventListener("sync", function () { setLive("updating…", "on"); refresh(); });
    es.onerror = function () { setLive("offline, retrying", "off"); };
  }

  // Moving a card: its ⋯ button, m on a focused card, or dragging it onto
  // a column. The menu lists the board's states and a claim; a choice is
  // a POST (/move: canon set's use case; /claim: canon claim's) with the
  // page's form token, and canon's answer, or its refusal, shows in the
  // notice. The board then follows the write as it follows any sync.
  var opener = null, focusKey = "", dragKey = "";
  function csrf() {
    var m = document.querySelector('meta[name="canon-csrf"]');
    return m ? m.getAttribute("content") : "";
  }
  function notice(text, refused) {
    var n = document.getElementById("notice");
    if (!n) { return; }
    n.textContent = text;
    n.className = "notice" + (refused ? " refused" : "");
    n.hidden = false;
  }
  function post(path, fields) {
    focusKey = fields.ref;
    return fetch(path, {
      method: "POST", credentials: "same-origin",
      headers: { "X-Canon-CSRF": csrf(), "Accept": "application/json" },
      body: new URLSearchParams(fields)
    }).then(function (r) {
      if ((r.headers.get("Content-Type") || "").indexOf("json") >= 0) { return r.json(); }
      return r.text().then(function (t) { return { ok: false, text: t.trim() }; });
    }).then(function (a) { notice(a.text, !a.ok); })
      .catch(function () { notice("canon serve did not answer", true); });
  }
  function menu() { return document.getElementById("move-menu"); }
  function menuItems() {
    var m = menu();
    return m ? Array.prototype.slice.call(m.querySelectorAll("button, input")) : [];
  }
  function openMenu(card) {
    var m = menu();
    if (!m || !card) { return; }
    opener = card.querySelector(".move");
    m.setAttribute("data-key", card.getAttribute("data-key"));
    m.querySelector(".move-id").textContent = card.getAttribute("data-id");
    var col = card.closest(".column"), here = col ? col.getAttribute("data-state") : "", first = null;
    Array.prototype.forEach.call(m.querySelectorAll("button[data-state]"), function (b) {
      if (b.getAttribute("data-state") === here) { b.setAttribute("aria-current", "true"); return; }
      b.removeAttribute("aria-current");
      if (!first) { first = b; }
    });
    var r = (opener || card).getBoundingClientRect();
    m.style.top = (window.scrollY + r.bottom + 2) + "px";
    m.style.left = Math.max(0, window.scrollX + r.right - 200) + "px";
    m.hidden = false;
    if (opener) { opener.setAttribute("aria-expanded", "true"); }
    (first || menuItems()[0]).focus();
  }
  function closeMenu(back) {
    var m = menu();
    if (!m || m.hidden) { return; }
    m.hidden = true;
    if (opener) {
      opener.setAttribute("aria-expanded", "false");
      if (back) { opener.focus(); }
    }
    opener = null;
    if (deferred) { deferred = false; refresh(); }
  }
  // refocus puts the focus back on the card a write moved, once the page
  // shows where it went.
  function refocus() {
    if (!focusKey || (document.activeElement && document.activeElement !== document.body)) { return; }
    var cs = document.querySelectorAll(".card");
    for (var i = 0; i < cs.length; i++) {
      if (cs[i].getAttribute("data-key") === focusKey) { cs[i].querySelector(".title").focus(); return; }
    }
  }
  document.addEventListener("click", function (e) {
    var t = e.target, m = menu();
    var b = t.closest ? t.closest("button") : null;
    if (b && b.classList.contains("move")) { openMenu(b.closest(".card")); return; }
    if (!m || m.hidden) { return; }
    if (!m.contains(t)) { closeMenu(false); return; }
    if (!b) { return; }
    var key = m.getAttribute("data-key");
    if (b.hasAttribute("data-state")) {
      closeMenu(true);
      post("/move", { ref: key, state: b.getAttribute("data-state") });
    } else if (b.hasAttribute("data-claim")) {
      var as = m.querySelector('input[name="as"]');
      closeMenu(true);
      post("/claim", { ref: key, as: as ? as.value : "" });
    }
  });
  document.addEventListener("keydown", function (e) {
    var m = menu();
    if (!m || m.hidden || !m.contains(e.target)) { return; }
    var items = menuItems(), i = items.indexOf(document.activeElement);
    if (e.key === "Escape") { e.preventDefault(); closeMenu(true); return; }
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      i = e.key === "ArrowDown" ? (i + 1) % items.length : (i - 1 + items.length) % items.length;
      items[i].focus();
      return;
    }
    if (e.key === "Enter" && e.target.tagName === "INPUT") {
      e.preventDefault();
      m.querySelector("button[data-claim]").click();
    }
  });
  document.addEventListener("focusout", function (e) {
    var m = menu();
    if (m && !m.hidden && m.contains(e.target) && e.relatedTarget && !m.contains(e.relatedTarget)) { closeMenu(false); }
  });
  document.addEventListener("dragstart", function (e) {
    var c = e.target.closest ? e.target.closest(".card") : null;
    if (!c) { return; }
    dragKey = c.getAttribute("data-key");
    e.dataTransfer.setData("text/plain", c.getAttribute("data-id"));
    e.dataTransfer.effectAllowed = "move";
    c.classList.add("dragging");
  });
  document.addEventListener("dragend", function (e) {
    if (e.target.classList) { e.target.classList.remove("dragging"); }
    Array.prototype.forEach.call(document.querySelectorAll(".column.drop"), function (c) { c.classList.remove("drop"); });
    dragKey = "";
  });
  document.addEventListener("dragover", function (e) {
    var col = dragKey && e.target.closest ? e.target.closest(".column") : null;
    if (col) { e.preventDefault(); col.classList.add("drop"); }
  });
  document.addEventListener("dragleave", function (e) {
    var col = e.target.closest ? e.target.closest(".column") : null;
    if (col && !col.contains(e.relatedTarget)) { col.classList.remove("drop"); }
  });
  document.addEventListener("drop", function (e) {
    var col = dragKey && e.target.closest ? e.target.closest(".column") : null;
    if (!col) { return; }
    e.preventDefault();
    col.classList.remove("drop");
    post("/move", { ref: dragKey, state: col.getAttribute("data-state") });
  });

  // Keyboard: / searches, j and k move between cards, Enter opens one, m
  // opens the focused card's move menu.
  function cards() { return Array.prototype.slice.call(document.querySelectorAll(".card .title")); }
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) { return; }
    if (t && t.closest && t.closest("#move-menu")) { return; }
    if (e.key === "m" && t && t.closest && t.closest(".card")) {
      e.preventDefault();
      openMenu(t.closest(".card"));
      return;
    }
    if (e.key === "/") {
      var box = document.getElementById("search-box");
      if (box) { e.preventDefault(); box.focus(); }
      return;
    }
    if (e.key === "j" || e.key === "k") {
      var list = cards();
      if (!list.length) { return; }
      var i = list.indexOf(document.activeElement);
      i = e.key === "j" ? Math.min(list.length - 1, i + 1) : Math.max(0, i - 1);
      list[i].focus();
      e.preventDefault();
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    tick();
    setInterval(tick, 1000);
    listen();
  });
})();

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

  var fetching = false, again = false;
  function refresh() {
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

  // Keyboard: / searches, j and k move between cards, Enter opens one.
  function cards() { return Array.prototype.slice.call(document.querySelectorAll(".card .title")); }
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) { return; }
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

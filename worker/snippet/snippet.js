// The snippet customers load from {host}/snippet.js. One IIFE whose one import (the URL rules' tracking parameters
// as one regex) scripts/dev/build-snippet.mjs makes and bundles in while it minifies; a test keeps it within 1,202
// bytes gzipped (1,024 before the visitor id and goals of experiments, 1,152 before audiences' referrer and dated id:
// docs/decisions.md, Issue 41; 1,169 before selector health's `m`: Issue 42).
// It asks /api/content (as JSON) for the current page and puts the content where the mapping says (docs/placement.md:
// first in <body> unless a selector names an element), inside one marked container, and sets the mapping's SEO fields
// in <head>; again whenever a history change moves to another page (a `replaceState` of the same URL, as routers make
// to keep scroll state, asks nothing). On a page the edge proxy already delivered (its <meta name="dynamic-content">
// in <head>) the first load asks nothing; later requests say `nav=1`, so that the Worker counts them where the edge
// counted the first load. Every request carries the visitor's random id (`vid`: experiments show each visitor one
// variant, docs/experiments.md), the page's referrer when it has one (`r`: docs/audiences.md) and the mapping whose
// selector named nothing on the visitor's last page (`m`, kept in localStorage until sent: docs/placement.md), and
// `dynamicContent.goal(name)` tells /api/goals that the visitor reached a goal.

import TRACKING from "tracking-pattern";

(function (w, d, l, h) {
  var script = d.currentScript;
  var base = script ? new URL(script.src).origin : "";
  var MARK = "data-dynamic-content";
  var seq = 0;
  var last = "";

  // The visitor's id (contract/experiments.ts VISITOR_ID: `[\w-]` is [A-Za-z0-9_-]): the edge proxy's first-party
  // cookie (VISITOR_COOKIE) where it holds a valid one, else localStorage's, else a new one: the time in milliseconds
  // and `_` (so the Worker knows a new visitor, contract/audiences.ts visitorKindOf), then 8 random numbers of 1 to 5
  // digits. Kept in localStorage, so that it agrees with the cookie; for this page only where localStorage throws
  // (some privacy modes), or is none (`store` undefined: the assignment throws).
  var vid = (d.cookie.match(/(^|; )dc_vid=([\w-]{8,64})(;|$)/) || [])[2];
  try {
    var store = w.localStorage;
    var kept = store.dc_vid;
    vid = vid || (/^[\w-]{8,64}$/.test(kept) && kept);
  } catch (e) {}
  vid = vid || Date.now() + "_" + crypto.getRandomValues(new Uint16Array(8)).join("");
  try {
    store.dc_vid = vid;
  } catch (e) {}

  // Where the content goes: the element the answer's selector names (none until it exists), else <body>.
  var target = (content) => {
    try {
      return content.s ? d.querySelector(content.s) : d.body;
    } catch (e) {}
  };

  // An element of ours in <head>, removed with the content.
  var add = (tag) => {
    var el = d.createElement(tag);
    el.setAttribute(MARK, "");
    return d.head.appendChild(el);
  };

  // Removes what the last page's content added (putting back an element it replaced), then adds this page's
  // (content-route.ts `snippetAnswer` says what each field holds).
  var inject = (content, el) => {
    d.querySelectorAll("[" + MARK + "]").forEach((old) => (old.r ? old.replaceWith(old.r) : old.remove()));
    if (el && content.h) {
      var box = d.createElement("div");
      box.setAttribute(MARK, "");
      box.innerHTML = content.h;
      if (content.p == "replace") {
        box.r = el;
        el.replaceWith(box);
      } else el.insertAdjacentElement(content.p || "afterbegin", box);
    }
    if (content.t) d.title = content.t;
    (content.e || []).forEach((e) => {
      var el = d.head.querySelector(e[0] + "[" + e[1] + "=" + e[2] + "]") || add(e[0]);
      el.setAttribute(e[1], e[2]);
      el.setAttribute(e[3], e[4]);
    });
    if (content.j) {
      var ld = add("script");
      ld.type = "application/ld+json";
      ld.textContent = content.j;
    }
  };

  // Injects once the element is there: while the page is still parsed, at DOMContentLoaded at the latest.
  var place = (content, n) => {
    if (n != seq) return;
    var el = target(content);
    if (!el && d.readyState == "loading") d.addEventListener("DOMContentLoaded", () => place(content, n));
    else {
      // The selector names nothing: the visitor's next content request says so (`m`, docs/placement.md).
      if (!el)
        try {
          store.dc_m = content.i;
        } catch (e) {}
      inject(content, el);
    }
  };

  // The page as the URL rules see it: without its hash and tracking parameters (a script that tidies
  // `?utm_source=…` away with replaceState stays on the same page).
  var page = () => {
    var u = new URL(l.href);
    u.hash = "";
    [...u.searchParams.keys()].forEach((k) => TRACKING.test(k) && u.searchParams.delete(k));
    return u.href;
  };

  // nav: 1 after a history change (asks only when the page changed), 0 when asked by the page.
  var run = (nav) => {
    var id = w.dynamicContentUserId;
    if (nav && page() == last) return;
    last = page();
    var n = ++seq;
    if (!id) return place({}, n);
    try {
      var m = store.dc_m;
      delete store.dc_m;
    } catch (e) {}
    // The answer's JSON; nothing for an error, or for 204 (no body: json() fails).
    fetch(
      base +
        "/api/content?" +
        new URLSearchParams({
          format: "json",
          u: id,
          url: l.href.split("#")[0],
          vid: vid,
          ...(nav && { nav: 1 }),
          ...(d.referrer && { r: d.referrer }),
          ...(m && { m }),
        }),
    )
      .then((r) => (r.ok ? r.json() : {}))
      .catch(() => ({}))
      .then((content) => place(content, n));
  };

  var wrap = (name) => {
    var original = h[name];
    h[name] = function () {
      var result = original.apply(this, arguments);
      run(1);
      return result;
    };
  };

  wrap("pushState");
  wrap("replaceState");
  w.addEventListener("popstate", () => run(1));
  w.setDynamicContentUserId = (id) => {
    w.dynamicContentUserId = id;
    run();
  };
  // A goal reached: a simple CORS request (text/plain, no preflight) that outlives the page; errors are swallowed.
  w.dynamicContent = {
    goal: (goal) => {
      var u = w.dynamicContentUserId;
      if (u)
        fetch(base + "/api/goals", {
          method: "POST",
          keepalive: true,
          body: JSON.stringify({ u, vid, goal }),
        }).catch(() => {});
    },
  };
  if (d.querySelector("meta[name=dynamic-content]")) last = page();
  else run();
})(window, document, location, history);

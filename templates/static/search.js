// Client-side search over the shards search.json lists: titles, answers, tags and body text; substring matching works for Chinese
// (no word breaks needed) and English alike, with a CJK bigram fallback for near-miss phrasings.
(function () {
  "use strict";
  var list = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  var input = document.getElementById("q");
  if (!list || !status || !input) return;
  var root = list.getAttribute("data-root") || "";
  var docs = null;
  var CJK = /[\u2e80-\u9fff\uf900-\ufaff]/;

  function norm(s) {
    return (s || "").normalize("NFKC").toLowerCase().replace(/\s+/g, " ");
  }

  function bigrams(s) {
    var out = [];
    for (var i = 0; i + 1 < s.length; i++) out.push(s.slice(i, i + 2));
    return out;
  }

  function termScore(doc, term) {
    var fields = [[doc.nt, 6], [doc.ng, 4], [doc.na, 3], [doc.nb, 1]];
    var score = 0;
    for (var i = 0; i < fields.length; i++) if (fields[i][0].indexOf(term) !== -1) score += fields[i][1];
    if (score || !CJK.test(term) || term.length < 3) return score;
    // A Chinese phrase not found verbatim still matches when most of its character pairs occur.
    var grams = bigrams(term), hit = 0, all = doc.nt + " " + doc.na + " " + doc.nb;
    for (var j = 0; j < grams.length; j++) if (all.indexOf(grams[j]) !== -1) hit++;
    return hit / grams.length >= 0.67 ? 0.5 : 0;
  }

  function snippet(doc, terms) {
    var text = doc.a + " " + doc.b, low = norm(text), at = -1, len = 0;
    for (var i = 0; i < terms.length && at < 0; i++) {
      at = low.indexOf(terms[i]);
      len = terms[i].length;
    }
    var frag = document.createDocumentFragment();
    if (at < 0) {
      frag.appendChild(document.createTextNode(doc.a.slice(0, 140)));
      return frag;
    }
    var start = Math.max(0, at - 50);
    frag.appendChild(document.createTextNode((start > 0 ? "… " : "") + text.slice(start, at)));
    var mark = document.createElement("mark");
    mark.textContent = text.slice(at, at + len);
    frag.appendChild(mark);
    frag.appendChild(document.createTextNode(text.slice(at + len, at + len + 90) + " …"));
    return frag;
  }

  function render(query) {
    while (list.firstChild) list.removeChild(list.firstChild);
    var terms = norm(query).trim().split(" ").filter(Boolean);
    if (!terms.length) {
      status.textContent = "";
      return;
    }
    var hits = [];
    docs.forEach(function (doc) {
      var total = 0;
      for (var i = 0; i < terms.length; i++) {
        var s = termScore(doc, terms[i]);
        if (!s) return;
        total += s;
      }
      hits.push([total, doc]);
    });
    hits.sort(function (x, y) { return y[0] - x[0] || (y[1].d > x[1].d ? 1 : y[1].d < x[1].d ? -1 : 0); });
    status.textContent = hits.length
      ? status.getAttribute("data-count").replace("{n}", hits.length)
      : status.getAttribute("data-none");
    hits.forEach(function (h) {
      var doc = h[1];
      var li = document.createElement("li");
      li.className = "card";
      li.lang = doc.l === "zh" ? "zh-CN" : "en";
      var h2 = document.createElement("h2");
      var a = document.createElement("a");
      a.href = root + doc.u;
      a.textContent = doc.t;
      h2.appendChild(a);
      var meta = document.createElement("p");
      meta.className = "meta";
      meta.textContent = doc.d;
      var p = document.createElement("p");
      p.className = "excerpt";
      p.appendChild(snippet(doc, terms));
      li.appendChild(h2);
      li.appendChild(meta);
      li.appendChild(p);
      list.appendChild(li);
    });
  }

  function add(data) {
    data.forEach(function (d) {
      d.nt = norm(d.t); d.na = norm(d.a); d.nb = norm(d.b); d.ng = norm((d.g || []).join(" "));
      docs.push(d);
    });
  }

  // search.json names the index's shards; they are fetched side by side and results refresh as each arrives.
  function load(onShard) {
    var index = list.getAttribute("data-index");
    return fetch(index)
      .then(function (r) { return r.json(); })
      .then(function (manifest) {
        docs = [];
        return Promise.all(manifest.shards.map(function (path) {
          return fetch(new URL(path, new URL(index, window.location.href)))
            .then(function (r) { return r.json(); })
            .then(function (data) { add(data); onShard(); });
        }));
      });
  }

  var params = new URLSearchParams(window.location.search);
  input.value = params.get("q") || "";
  var header = document.getElementById("site-q");
  if (header) header.value = input.value;
  input.addEventListener("input", function () {
    if (docs) render(input.value);
    var url = new URL(window.location.href);
    url.searchParams.set("q", input.value);
    window.history.replaceState(null, "", url);
  });
  load(function () { render(input.value); }).catch(function () {
    status.textContent = status.getAttribute("data-failed");
  });
})();

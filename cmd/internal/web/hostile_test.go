package web

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// hostileFiles are documents written to run code in the page: scripts in
// titles and bodies, event handlers, javascript: and data: links, a
// </title> break, raw SVG with handlers, an iframe, a form, a style, a
// meta refresh, and ids with quotes and angle brackets.
var hostileFiles = map[string]string{
	"items/KB-TSK-0001.md": "---\nid: KB-TSK-0001\ntype: Task\ntitle: \"</title><script>document.title='pwned-title'</script>\"\nstate: Ready\n" +
		"assignee: \"<img src=x onerror=alert(1)>\"\n---\n" +
		"# <script>document.title='pwned-heading'</script>\n\n" +
		"<script>document.title='pwned-body'</script>\n\n" +
		"<img src=x onerror=\"document.title='pwned-img'\">\n\n" +
		"[click](javascript:document.title='pwned-link') and [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)\n\n" +
		"<a href=\"javascript:alert(1)\">raw link</a> <a href=\"JaVaScRiPt:alert(1)\">cased</a> <a href=\"&#106;avascript:alert(1)\">entity</a>\n\n" +
		"<svg onload=\"document.title='pwned-svg'\"><script>alert(1)</script><circle r=\"4\"/></svg>\n\n" +
		"<iframe src=\"https://evil.example\"></iframe><form action=\"https://evil.example\"><input name=x></form>\n\n" +
		"<style>body{display:none}</style><meta http-equiv=\"refresh\" content=\"0;url=https://evil.example\">\n\n" +
		"<div onclick=\"alert(1)\" style=\"background:url(javascript:alert(1))\">div</div>\n\n" +
		"<details open ontoggle=\"alert(1)\"><summary>more</summary>fine</details>\n",
	"items/KB-TSK-0002.md": "---\nid: \"KB-\\\"TSK'<b>0002\"\ntype: Task\ntitle: \"Quote \\\" and ' and <b>bold</b>\"\nstate: \"Ready\\\"><script>alert(1)</script>\"\n" +
		"links:\n  blocked_by: [KB-TSK-0001]\n---\nBody with [a link](KB-TSK-0001.md).\n",
}

// unsafeHTML parses a page as a browser does and lists what could run
// code or reach out in it: a script but the page's own, an event handler
// attribute, a javascript:, vbscript: or data: URL, an element that
// embeds, styles, refreshes or posts elsewhere, an SVG but canon's own
// picture, or an element in that picture canon does not draw.
func unsafeHTML(page string) []string {
	var out []string
	z := html.NewTokenizer(strings.NewReader(page))
	scripts, inSVG := 0, 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		tok := z.Token()
		if tt == html.EndTagToken {
			if tok.Data == "svg" {
				inSVG--
			}
			continue
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		attr := map[string]string{}
		for _, a := range tok.Attr {
			attr[a.Key] = a.Val
			if strings.HasPrefix(a.Key, "on") {
				out = append(out, fmt.Sprintf("<%s %s=%q>", tok.Data, a.Key, a.Val))
			}
			v := strings.ToLower(strings.Join(strings.Fields(a.Val), ""))
			if (a.Key == "href" || a.Key == "src" || a.Key == "action" || a.Key == "xlink:href" || a.Key == "formaction") &&
				(strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "vbscript:") || strings.HasPrefix(v, "data:")) {
				out = append(out, fmt.Sprintf("<%s %s=%q>", tok.Data, a.Key, a.Val))
			}
			if a.Key == "style" {
				out = append(out, fmt.Sprintf("<%s style=%q>", tok.Data, a.Val))
			}
		}
		switch tok.Data {
		case "script":
			scripts++
			if scripts > 1 || attr["src"] != "/static/app.js" {
				out = append(out, fmt.Sprintf("a script %v", tok.Attr))
			}
		case "iframe", "frame", "object", "embed", "style", "base", "form", "meta", "link", "math":
			if tok.Data == "meta" && (attr["charset"] != "" || attr["name"] != "") ||
				tok.Data == "link" && attr["href"] == "/static/app.css" ||
				tok.Data == "form" && (attr["action"] == "/" || attr["action"] == "/search") {
				continue
			}
			out = append(out, fmt.Sprintf("<%s %v>", tok.Data, tok.Attr))
		case "svg":
			inSVG++
			if attr["class"] != "graph" {
				out = append(out, "an svg that is not canon's picture")
			}
		default:
			if inSVG > 0 && !map[string]bool{"g": true, "a": true, "title": true, "rect": true, "text": true, "line": true}[tok.Data] {
				out = append(out, fmt.Sprintf("<%s> in the picture", tok.Data))
			}
		}
	}
}

// TestHostileDocuments: no document puts a script, an event handler, a
// javascript: or data: link, an iframe, a form, a style or raw SVG into
// any page; the text still shows, escaped.
func TestHostileDocuments(t *testing.T) {
	s := newSite(t, repoOf(t, hostileFiles))
	pages := map[string]string{
		"board":       s.get(t, "/"),
		"item":        s.get(t, "/item?ref=KB-TSK-0001"),
		"quoted item": s.get(t, "/item?ref=items/KB-TSK-0002.md"),
		"search":      s.get(t, "/search?q=pwned"),
		"problems":    s.get(t, "/problems"),
		"branches":    s.get(t, "/branches"),
	}
	for name, body := range pages {
		for _, problem := range unsafeHTML(body) {
			t.Errorf("%s: %s", name, problem)
		}
		if !strings.Contains(body, `<script src="/static/app.js" defer></script>`) {
			t.Errorf("%s lacks the page's own script", name)
		}
	}
	item := pages["item"]
	mustContain(t, "the hostile item", item,
		"&lt;/title&gt;&lt;script&gt;document.title=&#39;pwned-title&#39;&lt;/script&gt;", // the title, as text
		"raw link", "<details", "<summary>more</summary>", "div")
	quoted := pages["quoted item"]
	mustContain(t, "the quoted item", quoted, "Quote &#34; and &#39; and &lt;b&gt;bold&lt;/b&gt;")
	for _, p := range []string{pages["board"], quoted} {
		if strings.Contains(p, `"><script>alert(1)`) || strings.Contains(p, "<b>bold</b>") {
			t.Errorf("a quoted id or state broke out of its attribute")
		}
	}
}

// TestRenderMarkdownSanitises: the renderer's output passes the sanitiser
// whatever the Markdown (a unit check beside the pages').
func TestRenderMarkdownSanitises(t *testing.T) {
	for _, src := range []string{
		"<script>alert(1)</script>",
		"[x](javascript:alert(1))",
		"![x](javascript:alert(1))",
		"<a href='javascript:alert(1)'>x</a>",
		"<img src=1 onerror=alert(1)>",
		"<svg><script>alert(1)</script></svg>",
		"<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
		"<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">",
		"---\ntitle: x\n---\n<script>alert(1)</script>",
	} {
		out := string(renderMarkdown([]byte(src), "docs/a.md"))
		for _, re := range []string{`(?i)<script`, `(?i)\son[a-z]+=`, `(?i)javascript:`, `(?i)<svg`, `(?i)<style`} {
			if regexp.MustCompile(re).MatchString(out) {
				t.Errorf("%q renders as %q (matches %s)", src, out, re)
			}
		}
	}
	if got := string(renderMarkdown([]byte("---\ntitle: x\n---\n# Hello\n"), "docs/a.md")); !strings.Contains(got, "<h1>Hello</h1>") || strings.Contains(got, "title: x") {
		t.Errorf("frontmatter is not cut: %q", got)
	}
}

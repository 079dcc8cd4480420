package markdown

import (
	"fmt"
	"html"
	"math/rand"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

var reHeadPos = regexp.MustCompile(`(?s)<h([1-6]) data-sourcepos="(\d+):[^"]*">(.*?)</h[1-6]>`)

var frags = []string{
	"# Title", "## Sub *emph* `code`", "Heading\n===", "Heading two\n---", "---", "***", "- - -",
	"text [a](a.md) more", "![img](i.png)", "[![b](badge.svg)](ci.html)", "<https://x.com/a>", "see http://foo.com/bar.",
	"```\n# not heading\n[x](y)\n```", "~~~\n[x](code)\n~~~", "    indented [x](code2)", "`[x](span)` and [y](ok)",
	"<!-- [x](comment) -->", "<!--\n# c\n-->", "- item [l](li.md)\n- item2", "1. one\n2. two [n](n.md)",
	"> quote [q](q.md)\n> # qh", "> ```\n> [f](fq)\n> ```", "| a | b |\n|---|---|\n| [t](t.md) | x |",
	"para\n    continued [c](c.md)", "- list\n\n      code [lc](lc)", "- list\n\n  para [lp](lp.md)",
	"<div>\n[h](html)\n</div>", "<details>\n<summary>S</summary>\n\n## Inside\n\n</details>",
	"\\[not](link)", "[a [b](inner) c](outer)", "[text](<sp ace.md>)", "[t](u \"title\")", "[t](a(b)c)",
	"# Head [link](h.md) #", "#5 not", "####### seven", "   ### three", "Setext *a*\nline two\n---",
	"* * *", "_ _ _", "Foo\n= bar", "- foo\n---", "- foo\n  ---", "2. x\n3. y", "text\n2. not list",
	"<pre>\n[p](pre)\n</pre>", "<script>\n# x\n</script>", "<span>inline</span> [s](s.md)",
	"http://a.com/(x)) and https://b.com/c?d=e,", "`` a ` b `` [z](z)", "```js\ncode\n", "x <a href=\"h\">y</a>",
	"# ✨ Features", "# C++ & C#", "## What's new?", "## snake_case_name", "## __init__", "## _private", "### 1.2.3",
	"## [Unreleased]", "[r]: rr.md", "## Ünïcödé 日本語", "## emoji :sparkles:", "## &amp; entity", "## <kbd>Ctrl</kbd>+C",
	"* a\n\n* b\n\n      code", "> > nested [n2](n2)", "- a\n  - b\n    - c [deep](deep.md)", "\t# tab heading",
	"- ```\n  # in fence\n  ```", "1. ```\n   [x](y)\n   ```", "   ```\n   [x](ind)\n   ```",
	"a `multi\nline [x](code)` b", "[multi\nline](ml.md)", "[t](\nnl.md)", "<!-- a\nb [x](c) -->", "lazy\n> quote",
	"> quote\nlazy [lz](lz.md)", ">\t# tabq", "-\tfoo [tb](tb)", "*\t# h", "1)  x", "- \n  foo [e](e)", "10. ten",
	"+ plus\n+ plus2", "<?php echo 1; ?>", "<!DOCTYPE html>", "<![CDATA[ [x](cd) ]]>", "</div>", "<img src=x>",
	"<a\nhref=\"x\">[y](z)</a>", "&#91;x](y)", "[x]\n(y)", "[x] (y)", "[x](y 'single')", "[x](y (paren))",
	"[x](<a<b>)", "[x](a b)", "[]()", "[x]()", "![](empty.png)", "`unclosed [u](u.md)", "``` not `fence",
	"~~~ tilde `ok`\n[tf](tf)\n~~~", "````\n```\n[x](in)\n````", "> > > deep\n> > # h2q", "  - a\n - b\n- c",
	"- a\n\n\n  b [bb](bb)", "1. a\n\n   [c1](c1)", "| x |\n| :-: |\n| [c](tc) |\nafter [af](af)",
	"a | b\n-- | --\n[q](tq) | x", "Title\n=====\n===", "***bold* text**", "## `code` *x* **y**",
	"## a\\*b", "## hello&nbsp;world", "## [ref][r]", "## ![alt](i.png) Title",
	"www.example.com and http://x.org/a_b_(c)", "http://foo_bar.com/x", "http://a.b_c.d/x", "https://x.com/a;b&amp;",
	"(http://paren.com/x)", "**http://emph.com/x**", "<http://x.com/a b>", "<mailto:a@b.c>", "<a@b.co>",
	"\\[esc\\](x)", "[a\\]b](x)", "[a`]`](b)", "[[wiki]]", "text\n    # notheading",
	"## *a **b** c*", "## **a*", "## a * b * c", "## ***x***", "## _a_b_", "## foo_bar_", "## __a__b", "## *_a_*",
	"## ~~del~~ ~one~ ~~~three~~~", "## a**b**c", "## [link *emph*](x)", "## ![img *a*](x) after", "## `a``b`",
	"## &copy; &#169; &#xA9; &bogus; &#0;", "## <b>bold</b> <!-- c --> x", "a  \nb\n---", "a\\\nb\n===",
	"## *foo`*`", "## [a](b *c*) d", "## **foo \"*bar*\" foo**", "## *(**foo**)*", "## _foo __bar__ baz_",
	"## foo***bar***baz", "## *foo**bar**baz*", "## ** not", "## __ not __", "## 5*6*7", "## \\_x_",
	"## [x]", "## [x][]", "## [x][y]", "## ![a]", "## <http://a.b> <a@b.c>", "## x&amp;y", "## ~a~b", "## ~~a~",
	"- a\n> b", "> a\n- b", "* a\n*\n* c", "#\tTabbed", "# #", "## trailing ##   ", "### x \\#",
}

func genDoc(r *rand.Rand) string {
	n := 1 + r.Intn(7)
	var parts []string
	for i := 0; i < n; i++ {
		f := frags[r.Intn(len(frags))]
		switch r.Intn(8) {
		case 0:
			f = "- " + strings.ReplaceAll(f, "\n", "\n  ")
		case 1:
			f = "> " + strings.ReplaceAll(f, "\n", "\n> ")
		case 2:
			f = "  " + strings.ReplaceAll(f, "\n", "\n  ")
		}
		parts = append(parts, f)
	}
	sep := []string{"\n", "\n\n", "\n\n\n"}
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteString(sep[r.Intn(len(sep))])
		}
		b.WriteString(p)
	}
	b.WriteString("\n")
	return b.String()
}

func cmarkPos(src string) string {
	cmd := exec.Command("cmark-gfm", "-e", "autolink", "-e", "table", "-e", "strikethrough", "--sourcepos")
	cmd.Stdin = strings.NewReader(src)
	out, err := cmd.Output()
	if err != nil {
		panic(err)
	}
	return string(out)
}

func TestZZRand(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewSource(seed))
	bad := 0
	for k := 0; k < 20000 && bad < 25; k++ {
		doc := genDoc(r)
		out := cmarkPos(doc)
		var want, got []string
		for _, m := range reHeadPos.FindAllStringSubmatch(out, -1) {
			want = append(want, fmt.Sprintf("H%s L%s %s", m[1], m[2], html.UnescapeString(reTag.ReplaceAllString(m[3], ""))))
		}
		b := ScanBody([]byte(doc), 1)
		for _, h := range b.Headings {
			got = append(got, fmt.Sprintf("H%d L%d %s", h.Level, h.Line, h.Text))
		}
		var wl, gl []string
		for _, m := range reLink.FindAllStringSubmatch(out, -1) {
			if m[1] == "rr.md" {
				continue
			}
			wl = append(wl, html.UnescapeString(m[1]+m[2]))
		}
		if strings.Contains(doc, "[r]:") {
			for i := range want {
				want[i] = want[i][:3] + want[i][strings.IndexByte(want[i][3:], ' ')+3:]
			}
			for i := range got {
				got[i] = got[i][:3] + got[i][strings.IndexByte(got[i][3:], ' ')+3:]
			}
		}
		for _, l := range b.Links {
			if l.Form == FormWiki || l.Form == FormEmbed || l.Dest == "rr.md" {
				continue
			}
			d := l.Dest
			if l.Anchor != "" {
				d += "#" + l.Anchor
			}
			gl = append(gl, strings.ReplaceAll(d, " ", "%20"))
		}
		sort.Strings(wl)
		sort.Strings(gl)
		if strings.Join(want, "|") != strings.Join(got, "|") || strings.Join(wl, "|") != strings.Join(gl, "|") {
			bad++
			t.Logf("DOC %q\n  cmark H: %q\n  ours  H: %q\n  cmark L: %q\n  ours  L: %q", doc, want, got, wl, gl)
		}
	}
	t.Logf("bad=%d", bad)
}

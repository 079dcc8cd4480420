package markdown

import (
	"fmt"
	"html"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var (
	reHead = regexp.MustCompile(`(?s)<h([1-6])[^>]*>(.*?)</h[1-6]>`)
	reLink = regexp.MustCompile(`<a href="([^"]*)"|<img src="([^"]*)"`)
	reTag  = regexp.MustCompile(`(?s)<[^>]*>`)
	reEsc  = regexp.MustCompile(`\\([!-/:-@\[-` + "`" + `{-~])`)
)

func cmarkRender(src []byte) string {
	cmd := exec.Command("cmark-gfm", "-e", "autolink", "-e", "table", "-e", "strikethrough", "--github-pre-lang")
	cmd.Stdin = strings.NewReader(string(src))
	out, err := cmd.Output()
	if err != nil {
		panic(err)
	}
	return string(out)
}

func normHref(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		s = u
	}
	return s
}

func diffDoc(t *testing.T, name string, src []byte) int {
	out := cmarkRender(src)
	var want, got []string
	for _, m := range reHead.FindAllStringSubmatch(out, -1) {
		want = append(want, "H"+m[1]+" "+html.UnescapeString(reTag.ReplaceAllString(m[2], "")))
	}
	b := ScanBody(src, 1)
	for _, h := range b.Headings {
		got = append(got, fmt.Sprintf("H%d %s", h.Level, h.Text))
	}
	var wl, gl []string
	for _, m := range reLink.FindAllStringSubmatch(out, -1) {
		h := m[1] + m[2]
		if strings.HasPrefix(h, "#fn") {
			continue
		}
		wl = append(wl, normHref(html.UnescapeString(h)))
	}
	for _, l := range b.Links {
		if l.Form == FormWiki || l.Form == FormEmbed {
			continue
		}
		d := l.Dest
		if l.Anchor != "" || strings.HasSuffix(lineOf(src, l.Line), "#") {
			d += "#" + l.Anchor
		}
		d = html.UnescapeString(reEsc.ReplaceAllString(d, "$1"))
		if l.Form == FormAutolink && !strings.Contains(d, ":") {
		}
		gl = append(gl, normHref(d))
	}
	bad := 0
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		bad++
		t.Logf("%s HEADINGS\n  cmark: %q\n  ours:  %q", name, want, got)
	}
	wl, gl = uniq(wl), uniq(gl)
	var oursMail bool
	for _, g := range gl {
		if strings.HasPrefix(g, "mailto:") {
			oursMail = true
		}
	}
	if !oursMail {
		var x []string
		for _, w := range wl {
			if !strings.HasPrefix(w, "mailto:") {
				x = append(x, w)
			}
		}
		wl = x
	}
	if strings.Join(wl, "\n") != strings.Join(gl, "\n") {
		bad++
		t.Logf("%s LINKS\n  only cmark: %q\n  only ours:  %q", name, minus(wl, gl), minus(gl, wl))
	}
	return bad
}

func uniq(a []string) []string {
	m := map[string]bool{}
	var out []string
	for _, x := range a {
		if !m[x] {
			m[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

func minus(a, b []string) []string {
	m := map[string]bool{}
	for _, x := range b {
		m[x] = true
	}
	var out []string
	for _, x := range a {
		if !m[x] {
			out = append(out, x)
		}
	}
	return out
}

func lineOf(src []byte, n int) string { return "" }

func TestZZCmarkFiles(t *testing.T) {
	list, err := os.ReadFile("/tmp/mdfiles.txt")
	if err != nil {
		t.Skip()
	}
	bad := 0
	for _, f := range strings.Fields(string(list)) {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		bad += diffDoc(t, f, src)
	}
	t.Logf("bad=%d", bad)
}

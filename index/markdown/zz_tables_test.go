package markdown

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"html"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func TestZZTables(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "body_test.go", nil, 0)
	if err != nil { t.Fatal(err) }
	var srcs []string
	ast.Inspect(f, func(n ast.Node) bool {
		fn, ok := n.(*ast.FuncDecl)
		if !ok || !strings.HasPrefix(fn.Name.Name, "TestScanBody") { return true }
		ast.Inspect(fn, func(n ast.Node) bool {
			cl, ok := n.(*ast.CompositeLit)
			if !ok || len(cl.Elts) < 2 { return true }
			n0, ok0 := cl.Elts[0].(*ast.BasicLit)
			s1, ok1 := cl.Elts[1].(*ast.BasicLit)
			if ok0 && ok1 && n0.Kind == token.STRING && s1.Kind == token.STRING {
				v, err := strconv.Unquote(s1.Value)
				if err == nil { srcs = append(srcs, v) }
			}
			return true
		})
		return false
	})
	t.Logf("%d sources", len(srcs))
	for _, doc := range srcs {
		out := cmarkPos(doc)
		var want, got []string
		for _, m := range reHeadPos.FindAllStringSubmatch(out, -1) {
			want = append(want, fmt.Sprintf("H%s L%s %s", m[1], m[2], html.UnescapeString(reTag.ReplaceAllString(m[3], ""))))
		}
		b := ScanBody([]byte(doc), 1)
		for _, h := range b.Headings { got = append(got, fmt.Sprintf("H%d L%d %s", h.Level, h.Line, h.Text)) }
		var wl, gl []string
		for _, m := range reLink.FindAllStringSubmatch(out, -1) { wl = append(wl, html.UnescapeString(m[1]+m[2])) }
		for _, l := range b.Links {
			if l.Form == FormWiki || l.Form == FormEmbed { continue }
			d := l.Dest
			if l.Anchor != "" { d += "#" + l.Anchor }
			gl = append(gl, strings.ReplaceAll(d, " ", "%20"))
		}
		sort.Strings(wl); sort.Strings(gl)
		if strings.Join(want, "|") != strings.Join(got, "|") || strings.Join(wl, "|") != strings.Join(gl, "|") {
			t.Logf("DOC %q\n  cmark H: %q\n  ours  H: %q\n  cmark L: %q\n  ours  L: %q", doc, want, got, wl, gl)
		}
	}
}

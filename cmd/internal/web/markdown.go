package web

import (
	"bytes"
	"html/template"
	"net/url"
	"path"
	"strings"
	"sync"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
)

// A document's body is attacker input: it is rendered as GitHub does
// (goldmark with its GFM extensions, the parser canon check's oracle
// compares with), raw HTML included, and the HTML is then sanitised by
// bluemonday's user-generated-content policy: no script, no style, no
// event handler attribute, no javascript: or data: link, no iframe, form
// or SVG. The sanitiser, not the renderer, is the gate: a renderer's
// escaping is written for correct output, a sanitiser's allow-list for
// hostile input (ADR-0077).

// The renderer and the policy are made at the first page that needs
// them, not when the process starts: every canon command (a hook too)
// links this package, and building the policy compiles its regular
// expressions.
var (
	markdownRenderer = sync.OnceValue(func() goldmark.Markdown {
		return goldmark.New(
			goldmark.WithExtensions(extension.GFM),
			goldmark.WithRendererOptions(html.WithUnsafe()), // raw HTML reaches the sanitiser, which keeps what is safe
		)
	})
	sanitiser = sync.OnceValue(func() *bluemonday.Policy {
		p := bluemonday.UGCPolicy()
		p.RequireNoReferrerOnLinks(true)
		p.AddTargetBlankToFullyQualifiedLinks(true)
		return p
	})
)

// maxBody is the most of a document's text the page renders.
const maxBody = 1 << 20

// renderMarkdown renders a document's body (its frontmatter cut off) as
// sanitised HTML. docPath is the document's repository path: a relative
// link to another Markdown file becomes a link to its page.
func renderMarkdown(src []byte, docPath string) template.HTML {
	if len(src) > maxBody {
		src = src[:maxBody]
	}
	body := stripFrontmatter(src)
	md := markdownRenderer()
	doc := md.Parser().Parse(text.NewReader(body))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if l, ok := n.(*ast.Link); ok && entering {
			l.Destination = []byte(localLink(string(l.Destination), docPath))
		}
		return ast.WalkContinue, nil
	})
	var b bytes.Buffer
	if err := md.Renderer().Render(&b, body, doc); err != nil {
		return template.HTML(template.HTMLEscapeString(string(body))) //nolint:gosec // escaped
	}
	return template.HTML(sanitiser().SanitizeBytes(b.Bytes())) //nolint:gosec // sanitised by the policy above
}

// localLink turns a relative link to a Markdown file inside the
// repository into the link to its page; any other link stays as written
// (the sanitiser judges it).
func localLink(dest, docPath string) string {
	p, _, _ := strings.Cut(dest, "#")
	p, _, _ = strings.Cut(p, "?")
	lower := strings.ToLower(p)
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, ":") || strings.HasPrefix(p, "\\") ||
		!(strings.HasSuffix(lower, ".md") || strings.HasSuffix(lower, ".markdown")) {
		return dest
	}
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	full := path.Clean(path.Join(path.Dir(docPath), p))
	if full == ".." || strings.HasPrefix(full, "../") {
		return dest
	}
	return "/item?ref=" + url.QueryEscape(full)
}

// stripFrontmatter cuts a leading YAML (---) or TOML (+++) block.
func stripFrontmatter(src []byte) []byte {
	s := string(src)
	s = strings.TrimPrefix(s, "\ufeff")
	for _, fence := range []string{"---", "+++"} {
		if !strings.HasPrefix(s, fence+"\n") && !strings.HasPrefix(s, fence+"\r\n") {
			continue
		}
		rest := s[strings.IndexByte(s, '\n')+1:]
		for off := 0; off < len(rest); {
			nl := strings.IndexByte(rest[off:], '\n')
			line := rest[off:]
			if nl >= 0 {
				line = rest[off : off+nl]
			}
			if strings.TrimRight(line, " \r") == fence {
				if nl < 0 {
					return nil
				}
				return []byte(rest[off+nl+1:])
			}
			if nl < 0 {
				break
			}
			off += nl + 1
		}
	}
	return []byte(s)
}

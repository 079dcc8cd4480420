package web

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/check"
	"github.com/canon-md/canon/index/search"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// pages are the templates, parsed once, at the first page served (not
// when any canon command starts): a layout and a body per page.
var pages = sync.OnceValue(func() map[string]*template.Template {
	funcs := template.FuncMap{"itemURL": itemURL, "short": short, "marks": marks, "same": strings.EqualFold}
	out := map[string]*template.Template{}
	for _, p := range []string{"board", "item", "branches", "problems", "search", "context"} {
		out[p] = template.Must(template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+p+".html"))
	}
	return out
})

// itemURL is the page of a document (its key, id or path).
func itemURL(ref string) string { return "/item?ref=" + url.QueryEscape(ref) }

// short is a commit's first ten digits.
func short(h string) string {
	if len(h) > 10 {
		return h[:10]
	}
	return h
}

// view is what the layout renders.
type view struct {
	Page, Title string
	Fresh       Fresh
	Data        any
	Err         string
	CSRF        string // the session's form token, for the script's POSTs
}

// page renders a page, or the error a call met.
func (m *Server) page(w http.ResponseWriter, r *http.Request, name, title string, f Fresh, data any, err error) {
	v := view{Page: name, Title: title, Fresh: f, Data: data, CSRF: m.csrf}
	code := http.StatusOK
	if err != nil {
		var nf *index.NotFoundError
		code = http.StatusInternalServerError
		if errors.As(err, &nf) {
			code = http.StatusNotFound
		}
		if r.Context().Err() != nil {
			return // the browser went
		}
		v.Err, v.Data = gitsync.Explain(err, ""), nil
	}
	var b bytes.Buffer
	if err := pages()[name].Execute(&b, v); err != nil {
		http.Error(w, "canon serve: the page could not be drawn", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write(b.Bytes())
}

// staticTypes are the files under /static/ and their types: nothing
// else is served there.
var staticTypes = map[string]string{"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}

// staticHandler serves the style sheet and the script.
func staticHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/static/")
		typ, ok := staticTypes[name]
		data, err := staticFS.ReadFile("static/" + name)
		if !ok || err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", typ)
		_, _ = w.Write(data)
	})
}

// branches answers GET /branches: what canon branches says.
func (m *Server) branches(w http.ResponseWriter, r *http.Request) {
	var b *graph.Branches
	fr, err := m.call(r.Context(), func(ctx context.Context, s *gitsync.Session, _ Fresh) error {
		over, st, err := s.Overlay(ctx, "", "")
		if err != nil {
			return err
		}
		if err := s.Store.HereEdges(ctx, over); err != nil {
			return err
		}
		refs, err := s.Store.Refs(ctx)
		if err != nil {
			return err
		}
		b = graph.BranchesOf(refs, over, st)
		sort.SliceStable(b.Refs, func(i, j int) bool { return b.Refs[i].Committed > b.Refs[j].Committed }) // newest first
		return nil
	})
	m.page(w, r, "branches", "Branches", fr, b, err)
}

// RuleGroup is the problems of one rule, by file.
type RuleGroup struct {
	Rule     string
	Severity string
	Files    []FileProblems
	Count    int
}

// FileProblems is one file's problems of a rule.
type FileProblems struct {
	Path     string
	Problems []check.Finding
}

// Problems is the problems page's data.
type Problems struct {
	Rules    []RuleGroup
	Errors   int
	Warnings int
	Checked  int
}

// problems answers GET /problems: canon problems, by rule and file.
func (m *Server) problems(w http.ResponseWriter, r *http.Request) {
	var p *Problems
	fr, err := m.call(r.Context(), func(ctx context.Context, s *gitsync.Session, _ Fresh) error {
		list, err := s.Problems(ctx)
		if err != nil {
			return err
		}
		p = groupProblems(list.Findings, list.Checked)
		return nil
	})
	m.page(w, r, "problems", "Problems", fr, p, err)
}

// groupProblems groups findings by rule (errors first, then most), then
// by file.
func groupProblems(fs []check.Finding, checked int) *Problems {
	sum := check.Summarize(fs, checked)
	p := &Problems{Errors: sum.Errors, Warnings: sum.Warnings, Checked: checked}
	by := map[string]*RuleGroup{}
	for _, f := range fs {
		g := by[f.Rule]
		if g == nil {
			g = &RuleGroup{Rule: f.Rule, Severity: f.Severity}
			by[f.Rule] = g
		}
		if f.Severity == "error" {
			g.Severity = "error"
		}
		g.Count++
		if n := len(g.Files); n > 0 && g.Files[n-1].Path == f.Path {
			g.Files[n-1].Problems = append(g.Files[n-1].Problems, f)
			continue
		}
		g.Files = append(g.Files, FileProblems{Path: f.Path, Problems: []check.Finding{f}})
	}
	for _, g := range by {
		p.Rules = append(p.Rules, *g)
	}
	sort.Slice(p.Rules, func(i, j int) bool {
		a, b := p.Rules[i], p.Rules[j]
		if (a.Severity == "error") != (b.Severity == "error") {
			return a.Severity == "error"
		}
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.Rule < b.Rule
	})
	return p
}

// Search is the search page's data.
type Search struct {
	Query, Kind string
	Limit       int
	Found       *search.Found
}

// search answers GET /search?q=...: canon search's answer.
func (m *Server) search(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	sv := &Search{Query: strings.TrimSpace(q.Get("q")), Kind: q.Get("kind"), Limit: 10}
	if n, err := strconv.Atoi(q.Get("limit")); err == nil && n > 0 {
		sv.Limit = min(n, 200)
	}
	fr, err := m.call(r.Context(), func(ctx context.Context, s *gitsync.Session, _ Fresh) error {
		if sv.Query == "" {
			return nil
		}
		var err error
		sv.Found, err = search.Search(ctx, s.Store, sv.Query, search.Options{Limit: sv.Limit, Kind: sv.Kind})
		return err
	})
	m.page(w, r, "search", "Search", fr, sv, err)
}

// Mark is a piece of a search snippet: a matched term or the text
// between.
type Mark struct {
	Text string
	Hit  bool
}

// marks splits a snippet at its ** ** around matched terms.
func marks(snippet string) []Mark {
	var out []Mark
	for i, part := range strings.Split(snippet, "**") {
		if part != "" {
			out = append(out, Mark{Text: part, Hit: i%2 == 1})
		}
	}
	return out
}

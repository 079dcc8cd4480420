package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/gitsync/watch"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/hooks"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/check"
	"github.com/canon-md/canon/workset"
)

// canon mcp: the read side of canon as an MCP server (stdio, or streamable
// HTTP on a loopback address). Every answer catches up with HEAD first, as
// a CLI command does, and says how fresh it is.

func mcpCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve canon to agents over MCP (stdio; --http 127.0.0.1:PORT for streamable HTTP)",
		Description: "Tools: search, show, context, neighbors, ready, blocked, check, status, query_run,\n" +
			"workset_list, workset_show, workset_context, workset_resume, workset_new, note, promote; resources canon://doc/{key} and\n" +
			"canon://workset/{name}/plan|notes; a prompt per query template. Every result carries its freshness: the indexed\n" +
			"commit, HEAD, whether the index was behind, how many working-tree files differ from it, and\n" +
			"when it last synced. The repository: --repo, else CANON_REPO, else the working folder.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "repo", Usage: "the repository `DIR` (default: CANON_REPO, else the working folder)"},
			&cli.StringFlag{Name: "http", Usage: "serve streamable HTTP on `ADDR` (a loopback address such as 127.0.0.1:7777)"},
		},
		Action: func(c *cli.Context) error {
			dir := c.String("repo")
			if dir == "" {
				dir = os.Getenv("CANON_REPO")
			}
			if dir != "" {
				e.dir = dir
			}
			srv, err := newMCPServer(e)
			if err != nil {
				return err
			}
			defer srv.close()
			if addr := c.String("http"); addr != "" {
				if !strings.HasPrefix(addr, "127.0.0.1:") && !strings.HasPrefix(addr, "localhost:") && !strings.HasPrefix(addr, "[::1]:") {
					return fail(2, "--http %s is not a loopback address; canon serves this machine only (127.0.0.1:PORT)", addr)
				}
				h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv.server }, nil)
				e.notef("serving MCP on http://%s", addr)
				return http.ListenAndServe(addr, h)
			}
			return srv.server.Run(c.Context, &mcp.StdioTransport{})
		},
	}
}

// mcpServer holds one session on the repository for its whole life; calls
// take turns on it.
type mcpServer struct {
	e      *env
	mu     sync.Mutex
	s      *gitsync.Session
	server *mcp.Server

	// The working tree's drift from the index is a stat walk of every
	// document: counted at the first call, then again in the background
	// when the last count is older than driftEvery, so that an answer
	// never waits for it (Freshness.WorkingTreeCheckedAt says when).
	driftMu      sync.Mutex
	drift        int
	driftAt      time.Time
	driftRunning bool
	driftGen     int // bumped when the index moves: an older background count is dropped
}

const driftEvery = 2 * time.Second

func newMCPServer(e *env) (*mcpServer, error) {
	s, err := gitsync.Open(e.dir, "canon mcp")
	if err != nil {
		return nil, err
	}
	s.OnSync(hooks.TellWorksets(nil, nil))
	m := &mcpServer{e: e, s: s}
	m.server = mcp.NewServer(&mcp.Implementation{Name: "canon", Version: version}, &mcp.ServerOptions{
		Instructions: "canon indexes this repository's Markdown (backlog items, ADRs, notes). Start with search or context; show reads one document; ready/blocked list open work. Every result says how fresh the index is.",
	})
	m.addTools()
	m.addResources()
	if err := m.addPrompts(); err != nil {
		s.Close()
		return nil, err
	}
	return m, nil
}

func (m *mcpServer) close() { m.s.Close() }

// Freshness says what an answer reflects.
type Freshness struct {
	IndexedCommit string `json:"indexed_commit"`
	Head          string `json:"head"`
	// WasBehind: the index was behind HEAD and this call caught up first.
	WasBehind bool `json:"was_behind"`
	// WorkingTreeDiffers counts the files edited, added or deleted since
	// the last sync, which the answer does not reflect (canon sync or a
	// running canon watch brings them in), as counted at
	// WorkingTreeCheckedAt (at most a few seconds ago).
	WorkingTreeDiffers   int    `json:"working_tree_differs"`
	WorkingTreeCheckedAt string `json:"working_tree_checked_at"`
	Watcher              bool   `json:"watcher"`
	SyncedAt             string `json:"synced_at"`
}

func (f Freshness) text() string {
	s := "index at " + shortHash(f.IndexedCommit)
	if f.WasBehind {
		s += " (caught up with HEAD for this answer)"
	}
	if f.WorkingTreeDiffers > 0 {
		s += fmt.Sprintf("; %s edited since the last sync not included", plural(f.WorkingTreeDiffers, "file"))
	}
	return s
}

// call runs fn on the session once the index has caught up with HEAD, and
// returns its result with the freshness.
func (m *mcpServer) call(ctx context.Context, fn func(s *gitsync.Session) error) (Freshness, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.s
	res, err := s.CatchUp(ctx)
	if err != nil {
		return Freshness{}, err
	}
	var f Freshness
	f.WasBehind = res.Action != gitsync.ActionNone
	meta, err := s.Store.AllMeta()
	if err != nil {
		return f, err
	}
	f.IndexedCommit, f.SyncedAt = meta[index.MetaHead], meta[index.MetaSyncedAt]
	f.Head, _, _ = s.Repo.Head()
	var at time.Time
	if f.WasBehind {
		m.driftMu.Lock()
		m.driftAt = time.Time{} // the index moved: count again now
		m.driftGen++
		m.driftMu.Unlock()
	}
	if f.WorkingTreeDiffers, at, err = m.workingTreeDrift(s); err != nil {
		return f, err
	}
	f.WorkingTreeCheckedAt = at.UTC().Format(time.RFC3339)
	if w, err := watch.Observe(s.Repo.CanonDir()); err == nil && w != nil {
		f.Watcher = w.Running
	}
	return f, fn(s)
}

// workingTreeDrift returns the last count of working-tree files that
// differ from the index and when it was made: counted now the first time,
// afterwards refreshed in the background once it is older than driftEvery
// (a sync of this server's also makes it stale: it recounts then).
func (m *mcpServer) workingTreeDrift(s *gitsync.Session) (int, time.Time, error) {
	m.driftMu.Lock()
	defer m.driftMu.Unlock()
	count := func() (int, error) {
		// A scope of its own: the session's serves the calls meanwhile.
		return s.Store.Drift(index.NewScope(s.Repo.Root, s.Cfg, s.Repo.InfoExclude()))
	}
	if m.driftAt.IsZero() {
		n, err := count()
		if err != nil {
			return 0, time.Time{}, err
		}
		m.drift, m.driftAt = n, time.Now()
		return n, m.driftAt, nil
	}
	if time.Since(m.driftAt) > driftEvery && !m.driftRunning {
		m.driftRunning = true
		gen := m.driftGen
		go func() {
			n, err := count()
			m.driftMu.Lock()
			defer m.driftMu.Unlock()
			m.driftRunning = false
			if err == nil && gen == m.driftGen {
				m.drift, m.driftAt = n, time.Now()
			}
		}()
	}
	return m.drift, m.driftAt, nil
}

// answer runs fn on the caught-up session and makes the tool result: the
// compact text fn returns, and out (which fn fills) with its freshness.
func answer[Out any](ctx context.Context, m *mcpServer, out *Out, fresh *Freshness, fn func(s *gitsync.Session) (string, error)) (*mcp.CallToolResult, Out, error) {
	var txt string
	f, err := m.call(ctx, func(s *gitsync.Session) error {
		var err error
		txt, err = fn(s)
		return err
	})
	*fresh = f
	if err != nil {
		return nil, *out, err
	}
	return text(f, txt), *out, nil
}

// text is a tool result's compact rendering: the freshness line, then body.
func text(f Freshness, body string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.TrimRight(body, "\n") + "\n(" + f.text() + ")"}}}
}

var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true}

// outSchema is a tool's output schema: an object with these properties and
// freshness. It names the fields and stays short: the whole tools/list
// answer must cost an agent little (the Go types behind the fields are
// documented in docs/mcp.md).
func outSchema(props ...string) *jsonschema.Schema {
	sc := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"freshness": {Type: "object"}}}
	for _, p := range props {
		name, typ, _ := strings.Cut(p, ":") // NAME:TYPE
		sc.Properties[name] = &jsonschema.Schema{Type: typ}
	}
	return sc
}

type (
	searchIn struct {
		Query string `json:"query" jsonschema:"words to find"`
		Limit int    `json:"limit,omitempty" jsonschema:"default 10, at most 50"`
		Kind  string `json:"kind,omitempty" jsonschema:"task, adr, doc, ..."`
	}
	searchOut struct {
		Hits      []index.Hit `json:"hits"`
		Truncated bool        `json:"truncated"`
		Freshness Freshness   `json:"freshness"`
	}
	refIn struct {
		Ref  string `json:"ref" jsonschema:"id, uid, node key or path"`
		Text bool   `json:"text,omitempty" jsonschema:"with section texts"`
	}
	showOut struct {
		Doc       *index.DocView `json:"doc"`
		Freshness Freshness      `json:"freshness"`
	}
	contextIn struct {
		Query  string   `json:"query,omitempty" jsonschema:"full-text search for seeds"`
		Seeds  []string `json:"seeds,omitempty" jsonschema:"documents to start from"`
		For    string   `json:"for,omitempty" jsonschema:"a task, with the knowledge in its scope"`
		Budget int      `json:"budget,omitempty" jsonschema:"estimated tokens"`
	}
	packOut struct {
		Pack      any       `json:"pack"`
		Freshness Freshness `json:"freshness"`
	}
	neighborsIn struct {
		Ref       string   `json:"ref" jsonschema:"id, uid, key or path"`
		Depth     int      `json:"depth,omitempty" jsonschema:"1 to 4"`
		Edges     []string `json:"edges,omitempty" jsonschema:"edge types (default all)"`
		Direction string   `json:"direction,omitempty" jsonschema:"out, in, both"`
	}
	neighborsOut struct {
		Root      index.DocRef    `json:"root"`
		Nodes     []graph.Reached `json:"nodes"`
		Capped    bool            `json:"capped"`
		Freshness Freshness       `json:"freshness"`
	}
	workIn struct {
		Kinds []string `json:"kinds,omitempty" jsonschema:"task, bug, ..."`
		Limit int      `json:"limit,omitempty" jsonschema:"default 20"`
	}
	readyOut struct {
		Items     []graph.Item `json:"items"`
		Truncated int          `json:"truncated"`
		Freshness Freshness    `json:"freshness"`
	}
	blockedOut struct {
		Items     []graph.BlockedItem `json:"items"`
		Truncated int                 `json:"truncated"`
		Freshness Freshness           `json:"freshness"`
	}
	checkIn struct {
		Staged bool     `json:"staged,omitempty" jsonschema:"the staged change; new problems only"`
		Paths  []string `json:"paths,omitempty" jsonschema:"working-tree files"`
		All    bool     `json:"all,omitempty" jsonschema:"every document"`
		Limit  int      `json:"limit,omitempty" jsonschema:"default 50"`
	}
	checkOut struct {
		Summary   check.Summary   `json:"summary"`
		Findings  []check.Finding `json:"findings"`
		Truncated int             `json:"truncated"`
		Freshness Freshness       `json:"freshness"`
	}
	noIn      struct{}
	statusOut struct {
		Documents int       `json:"documents"`
		Kinds     any       `json:"kinds"`
		Freshness Freshness `json:"freshness"`
	}
	queryIn struct {
		Template string   `json:"template" jsonschema:"a query template"`
		Seeds    []string `json:"seeds,omitempty" jsonschema:"replace the anchors"`
		Workset  string   `json:"workset,omitempty" jsonschema:"for workset: $workset anchors"`
		Budget   int      `json:"budget,omitempty" jsonschema:"estimated tokens"`
	}
	worksetIn struct {
		Name   string `json:"name" jsonschema:"the workset"`
		Budget int    `json:"budget,omitempty" jsonschema:"estimated tokens (2000)"`
	}
	worksetsOut struct {
		Worksets  []workset.Info `json:"worksets"`
		Freshness Freshness      `json:"freshness"`
	}
	worksetOut struct {
		Workset   *workset.Detail `json:"workset"`
		Freshness Freshness       `json:"freshness"`
	}
	resumeOut struct {
		Resume    *workset.Resume `json:"resume"`
		Freshness Freshness       `json:"freshness"`
	}
	worksetContextIn struct {
		Name   string `json:"name" jsonschema:"the workset"`
		Query  string `json:"query,omitempty" jsonschema:"more seeds from the workset"`
		Budget int    `json:"budget,omitempty" jsonschema:"estimated tokens"`
	}
	worksetNewIn struct {
		Name     string   `json:"name" jsonschema:"letters, digits, - _ ."`
		Seeds    []string `json:"seeds,omitempty" jsonschema:"documents of the task"`
		Query    string   `json:"query,omitempty" jsonschema:"or a full-text search"`
		Template string   `json:"template,omitempty" jsonschema:"or a query template"`
		Agent    string   `json:"agent,omitempty" jsonschema:"who works in it"`
	}
	worksetNewOut struct {
		Workset   *workset.Info `json:"workset"`
		Freshness Freshness     `json:"freshness"`
	}
	noteIn struct {
		Workset string `json:"workset"`
		Target  string `json:"target" jsonschema:"the document (id, uid, path)"`
		Kind    string `json:"kind,omitempty" jsonschema:"decision, risk, finding; none: worklog"`
		Text    string `json:"text"`
		Expect  string `json:"expect,omitempty" jsonschema:"notes_hash last seen; refused if changed"`
	}
	noteOut struct {
		Note      *workset.NoteResult `json:"note"`
		Freshness Freshness           `json:"freshness"`
	}
	promoteIn struct {
		Workset string `json:"workset"`
		To      string `json:"to,omitempty" jsonschema:"self, parent, root, group, global, or a path"`
		Agent   string `json:"agent,omitempty" jsonschema:"named in worklog lines"`
		ADR     bool   `json:"adr,omitempty" jsonschema:"decisions become ADRs"`
		Apply   bool   `json:"apply,omitempty" jsonschema:"write; else only the diff"`
	}
	promoteOut struct {
		Promote   *promoteJSON `json:"promote"`
		Freshness Freshness    `json:"freshness"`
	}
)

// render captures what a CLI printer writes.
func render(fn func(b *bytes.Buffer)) string {
	var b bytes.Buffer
	fn(&b)
	return b.String()
}

func (m *mcpServer) addTools() {
	srv := m.server
	mcp.AddTool(srv, &mcp.Tool{Name: "search", OutputSchema: outSchema("hits:array", "truncated:boolean"), Description: "Full-text search over sections (bm25).", Annotations: readOnly},
		func(ctx context.Context, _ *mcp.CallToolRequest, in searchIn) (*mcp.CallToolResult, searchOut, error) {
			var out searchOut
			limit := in.Limit
			if limit <= 0 {
				limit = 10
			}
			limit = min(limit, 50)
			f, err := m.call(ctx, func(s *gitsync.Session) error {
				hits, err := s.Store.Search(ctx, in.Query, index.SearchOptions{Limit: limit + 1, Kind: in.Kind})
				if len(hits) > limit {
					hits, out.Truncated = hits[:limit], true
				}
				out.Hits = hits
				return err
			})
			out.Freshness = f
			if err != nil {
				return nil, out, err
			}
			var b strings.Builder
			for _, h := range out.Hits {
				fmt.Fprintf(&b, "%s  %s  #%s  %s\n", h.ID, h.Title, h.Slug, h.Snippet)
			}
			if len(out.Hits) == 0 {
				fmt.Fprintf(&b, "no matches for %q\n", in.Query)
			}
			if out.Truncated {
				fmt.Fprintf(&b, "(more hits past the limit of %d)\n", limit)
			}
			return text(f, b.String()), out, nil
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "show", OutputSchema: outSchema("doc:object"), Description: "One document: frontmatter, edges, sections, problems.", Annotations: readOnly},
		func(ctx context.Context, _ *mcp.CallToolRequest, in refIn) (*mcp.CallToolResult, showOut, error) {
			var out showOut
			return answer(ctx, m, &out, &out.Freshness, func(s *gitsync.Session) (string, error) {
				doc, err := findRef(ctx, s, in.Ref, "the search tool")
				if err != nil {
					return "", err
				}
				if out.Doc, err = s.Store.Show(ctx, doc.Key, in.Text); err != nil {
					return "", err
				}
				if out.Doc.Problems, err = s.DocProblems(ctx, out.Doc.Path); err != nil {
					return "", err
				}
				return render(func(b *bytes.Buffer) { printDoc(b, out.Doc) }), nil
			})
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "context", OutputSchema: outSchema("pack:object"), Description: "A bounded context pack: from a search, seed documents, or a task (for) with the knowledge in its scope.", Annotations: readOnly},
		func(ctx context.Context, _ *mcp.CallToolRequest, in contextIn) (*mcp.CallToolResult, packOut, error) {
			var out packOut
			var md string
			f, err := m.call(ctx, func(s *gitsync.Session) error {
				opt := graph.OptionsFrom(s.Cfg.Context)
				if in.Budget > 0 {
					opt.Budget = in.Budget
				}
				g := graph.New(s.Store)
				var p interface{ WriteMarkdown(w io.Writer) error }
				if in.For != "" {
					sp, err := g.ScopedPack(ctx, graph.ScopedArgs{For: in.For, Options: opt, Shares: s.Cfg.Context.Scopes,
						CommitPaths: func(ctx context.Context, t index.DocRef) ([]string, error) { return s.Repo.CommitPaths(ctx, t.ID, 200) }})
					if err != nil {
						return err
					}
					p, out.Pack = sp, sp
				} else {
					if in.Query == "" && len(in.Seeds) == 0 {
						return errors.New("context needs a query, seeds or for")
					}
					opt.Query, opt.Seeds = in.Query, in.Seeds
					pk, err := g.Pack(ctx, opt)
					if err != nil {
						return err
					}
					p, out.Pack = pk, pk
				}
				md = render(func(b *bytes.Buffer) { p.WriteMarkdown(b) })
				return nil
			})
			out.Freshness = f
			if err != nil {
				return nil, out, graphError(err)
			}
			return text(f, md), out, nil
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "neighbors", OutputSchema: outSchema("root:object", "nodes:array", "capped:boolean"), Description: "Documents around one, along typed edges.", Annotations: readOnly},
		func(ctx context.Context, _ *mcp.CallToolRequest, in neighborsIn) (*mcp.CallToolResult, neighborsOut, error) {
			var out neighborsOut
			var txt string
			f, err := m.call(ctx, func(s *gitsync.Session) error {
				depth := in.Depth
				if depth <= 0 {
					depth = 1
				}
				dir, err := graph.ParseDirection(in.Direction)
				if err != nil {
					return err
				}
				ex, err := graph.New(s.Store).Expand(ctx, []string{in.Ref}, graph.ExpandOptions{
					Depth: min(depth, 4), Edges: in.Edges, Direction: dir, MaxNodes: 100,
				})
				if err != nil {
					return err
				}
				out.Root, out.Nodes, out.Capped = ex.Nodes[0].DocRef, ex.Nodes[1:], ex.NodeCapped
				txt = render(func(b *bytes.Buffer) { printNeighbors(b, ex) })
				return nil
			})
			out.Freshness = f
			if err != nil {
				return nil, out, graphError(err)
			}
			return text(f, txt), out, nil
		})

	work := func(ctx context.Context, in workIn) (*graph.Work, Freshness, error) {
		var w *graph.Work
		f, err := m.call(ctx, func(s *gitsync.Session) error {
			var err error
			w, err = graph.New(s.Store).Work(ctx, graph.WorkOptions{States: s.Cfg.States, Kinds: in.Kinds})
			return err
		})
		return w, f, err
	}

	mcp.AddTool(srv, &mcp.Tool{Name: "ready", OutputSchema: outSchema("items:array", "truncated:integer"), Description: "Open work nothing blocks, by priority.", Annotations: readOnly},
		func(ctx context.Context, _ *mcp.CallToolRequest, in workIn) (*mcp.CallToolResult, readyOut, error) {
			w, f, err := work(ctx, in)
			out := readyOut{Freshness: f, Items: []graph.Item{}}
			if err != nil {
				return nil, out, err
			}
			out.Items, out.Truncated = page(w.Ready, in.Limit, 20)
			var b strings.Builder
			for _, it := range out.Items {
				fmt.Fprintf(&b, "%s  %s  %s  %s\n", it.ID, it.Priority, it.State, it.Title)
			}
			if out.Truncated > 0 {
				fmt.Fprintf(&b, "(%d more past the limit)\n", out.Truncated)
			}
			return text(f, b.String()), out, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "blocked", OutputSchema: outSchema("items:array", "truncated:integer"), Description: "Open work something blocks, with the blockers.", Annotations: readOnly},
		func(ctx context.Context, _ *mcp.CallToolRequest, in workIn) (*mcp.CallToolResult, blockedOut, error) {
			w, f, err := work(ctx, in)
			out := blockedOut{Freshness: f, Items: []graph.BlockedItem{}}
			if err != nil {
				return nil, out, err
			}
			out.Items, out.Truncated = page(w.Blocked, in.Limit, 20)
			var b strings.Builder
			for _, it := range out.Items {
				var by []string
				for _, bl := range it.Blockers {
					by = append(by, bl.ID)
				}
				fmt.Fprintf(&b, "%s  %s  %s  blocked by %s\n", it.ID, it.State, it.Title, strings.Join(by, ", "))
			}
			if out.Truncated > 0 {
				fmt.Fprintf(&b, "(%d more past the limit)\n", out.Truncated)
			}
			return text(f, b.String()), out, nil
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "check", OutputSchema: outSchema("summary:object", "findings:array", "truncated:integer"), Description: "Validate documents: staged (new problems only), given paths, or all.", Annotations: readOnly},
		func(ctx context.Context, _ *mcp.CallToolRequest, in checkIn) (*mcp.CallToolResult, checkOut, error) {
			var out checkOut
			f, err := m.call(ctx, func(s *gitsync.Session) error {
				var res *gitsync.CheckResult
				var err error
				switch {
				case in.Staged:
					res, err = s.CheckStaged(ctx, true, nil)
				case in.All:
					res, err = s.CheckAll(ctx)
				case len(in.Paths) > 0:
					res, err = s.CheckPaths(ctx, in.Paths)
				default:
					return errors.New("check needs staged: true, paths, or all: true")
				}
				if err != nil {
					return err
				}
				out.Summary = check.Summarize(res.Findings, len(res.Checked))
				out.Findings, out.Truncated = page(res.Findings, in.Limit, 50)
				return nil
			})
			out.Freshness = f
			if err != nil {
				return nil, out, err
			}
			var b strings.Builder
			for _, fd := range out.Findings {
				fmt.Fprintln(&b, fd)
			}
			fmt.Fprintf(&b, "%s, %s in %s (%s checked)\n", plural(out.Summary.Errors, "error"), plural(out.Summary.Warnings, "warning"),
				plural(out.Summary.Files, "file"), plural(out.Summary.Checked, "file"))
			if out.Truncated > 0 {
				fmt.Fprintf(&b, "(%d more findings past the limit)\n", out.Truncated)
			}
			return text(f, b.String()), out, nil
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "status", OutputSchema: outSchema("documents:integer", "kinds:object"), Description: "The index: commit, counts, freshness.", Annotations: readOnly},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ noIn) (*mcp.CallToolResult, statusOut, error) {
			var out statusOut
			f, err := m.call(ctx, func(s *gitsync.Session) error {
				st, err := s.Store.Counts(ctx)
				if err != nil {
					return err
				}
				out.Documents, out.Kinds = st.Documents, st.Kinds
				return nil
			})
			out.Freshness = f
			if err != nil {
				return nil, out, err
			}
			return text(f, fmt.Sprintf("%s indexed at %s; HEAD %s", plural(out.Documents, "document"), shortHash(f.IndexedCommit), shortHash(f.Head))), out, nil
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "query_run", OutputSchema: outSchema("pack:object"), Description: "Run a query template (task-context, workflow-resume, ...).", Annotations: readOnly},
		func(ctx context.Context, _ *mcp.CallToolRequest, in queryIn) (*mcp.CallToolResult, packOut, error) {
			return m.queryRun(ctx, in)
		})

	wenv := func(s *gitsync.Session) (*workset.Env, error) {
		now, err := workset.ParseNow()
		if err != nil {
			return nil, err
		}
		head, err := s.Store.Meta(index.MetaHead)
		if err != nil {
			return nil, err
		}
		return &workset.Env{Root: s.Repo.Root, Index: s.Store, Config: s.Cfg, Head: head, Now: now, Who: "canon mcp",
			Git: func(ctx context.Context, args ...string) (string, error) {
				out, err := s.Repo.Git(ctx, args...)
				return string(out), err
			}}, nil
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "workset_list", OutputSchema: outSchema("worksets:array"), Description: "The worksets: seeds, size, stale or fresh, unpromoted findings.", Annotations: readOnly},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ noIn) (*mcp.CallToolResult, worksetsOut, error) {
			var out worksetsOut
			return answer(ctx, m, &out, &out.Freshness, func(s *gitsync.Session) (string, error) {
				we, err := wenv(s)
				if err != nil {
					return "", err
				}
				if out.Worksets, err = workset.List(ctx, we); err != nil {
					return "", err
				}
				var b strings.Builder
				for _, w := range out.Worksets {
					state := "fresh"
					if w.Stale {
						state = "stale"
					}
					fmt.Fprintf(&b, "%s  %s  %s, seeds %s, %d unpromoted\n", w.Name, state, plural(w.Docs, "document"), strings.Join(w.Seeds, ","), w.Unpromoted)
				}
				if len(out.Worksets) == 0 {
					b.WriteString("no worksets\n")
				}
				return b.String(), nil
			})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "workset_show", OutputSchema: outSchema("workset:object"), Description: "One workset: members and why, stale reasons, findings.", Annotations: readOnly},
		func(ctx context.Context, _ *mcp.CallToolRequest, in worksetIn) (*mcp.CallToolResult, worksetOut, error) {
			var out worksetOut
			return answer(ctx, m, &out, &out.Freshness, func(s *gitsync.Session) (string, error) {
				we, err := wenv(s)
				if err != nil {
					return "", err
				}
				if out.Workset, err = workset.Show(ctx, we, in.Name); err != nil {
					return "", err
				}
				var b strings.Builder
				fmt.Fprintf(&b, "workset %s: %s, %d findings (%d unpromoted)\n", out.Workset.Name, plural(out.Workset.Docs, "document"), out.Workset.Info.Findings, out.Workset.Unpromoted)
				for _, r := range out.Workset.StaleReasons {
					fmt.Fprintf(&b, "stale: %s\n", r)
				}
				for _, mb := range out.Workset.Members {
					fmt.Fprintf(&b, "  %s  %s  [%s]\n", mb.ID, mb.Title, mb.Kind)
				}
				return b.String(), nil
			})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "workset_resume", OutputSchema: outSchema("resume:object"), Description: "Where a workset's task stands: goal, plan, decisions, what changed since the last checkpoint.", Annotations: readOnly},
		func(ctx context.Context, _ *mcp.CallToolRequest, in worksetIn) (*mcp.CallToolResult, resumeOut, error) {
			var out resumeOut
			return answer(ctx, m, &out, &out.Freshness, func(s *gitsync.Session) (string, error) {
				we, err := wenv(s)
				if err != nil {
					return "", err
				}
				budget := in.Budget
				if budget <= 0 {
					budget = 2000
				}
				if out.Resume, err = workset.BuildResume(ctx, we, in.Name, workset.ResumeOptions{Budget: budget}); err != nil {
					return "", err
				}
				return out.Resume.Text(), nil
			})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "workset_context", OutputSchema: outSchema("pack:object"), Description: "A context pack from a workset's own documents.", Annotations: readOnly},
		func(ctx context.Context, _ *mcp.CallToolRequest, in worksetContextIn) (*mcp.CallToolResult, packOut, error) {
			var out packOut
			var md string
			f, err := m.call(ctx, func(s *gitsync.Session) error {
				we, err := wenv(s)
				if err != nil {
					return err
				}
				opt := workset.ContextOptions{Query: in.Query}
				if in.Budget > 0 {
					opt.Budget = &in.Budget
				}
				p, _, err := workset.Context(ctx, we, in.Name, opt)
				if err != nil {
					return err
				}
				out.Pack = p
				md = render(func(b *bytes.Buffer) { p.WriteMarkdown(b) })
				return nil
			})
			out.Freshness = f
			if err != nil {
				return nil, out, err
			}
			return text(f, md), out, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "workset_new", Description: "Make a workset for a task from seeds, a search or a template.", OutputSchema: outSchema("workset:object"),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false)}},
		func(ctx context.Context, _ *mcp.CallToolRequest, in worksetNewIn) (*mcp.CallToolResult, worksetNewOut, error) {
			var out worksetNewOut
			f, err := m.call(ctx, func(s *gitsync.Session) error {
				we, err := wenv(s)
				if err != nil {
					return err
				}
				we.Template = func(name string) (*graph.Template, error) {
					lib, err := loadLibrary(m.e)
					if err != nil {
						return nil, err
					}
					return lib.Resolve(name)
				}
				out.Workset, err = workset.Create(ctx, we, in.Name, workset.CreateOptions{
					Spec: workset.Spec{Seeds: in.Seeds, Query: in.Query, Template: in.Template}, Agent: in.Agent})
				return err
			})
			out.Freshness = f
			if err != nil {
				return nil, out, err
			}
			w := out.Workset
			return text(f, fmt.Sprintf("created workset %s: %s, seeds %s; notes go to %s/notes.md", w.Name, plural(w.Docs, "document"), strings.Join(w.Seeds, ", "), w.Path)), out, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "note", Description: "Append a finding to a workset's notes.md (promote's format), atomically.", OutputSchema: outSchema("note:object"),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false)}},
		func(ctx context.Context, _ *mcp.CallToolRequest, in noteIn) (*mcp.CallToolResult, noteOut, error) {
			var out noteOut
			return answer(ctx, m, &out, &out.Freshness, func(s *gitsync.Session) (string, error) {
				we, err := wenv(s)
				if err != nil {
					return "", err
				}
				if out.Note, err = workset.AppendNote(ctx, we, in.Workset, workset.NoteArgs{Target: in.Target, Kind: in.Kind, Text: in.Text, Expect: in.Expect}); err != nil {
					return "", err
				}
				return "appended: " + out.Note.Line, nil
			})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "promote", Description: "Append a workset's findings to the canonical documents: a diff, or the writes with apply.", OutputSchema: outSchema("promote:object"),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true)}},
		func(ctx context.Context, _ *mcp.CallToolRequest, in promoteIn) (*mcp.CallToolResult, promoteOut, error) {
			var out promoteOut
			var txt string
			f, err := m.call(ctx, func(s *gitsync.Session) error {
				// Targets are looked up in the working tree as it is.
				if _, err := s.Reconcile(ctx); err != nil {
					return err
				}
				to := in.To
				switch to {
				case "":
					to = workset.ToSelf
				case workset.ToSelf, workset.ToParent, workset.ToRoot, workset.ToGroup, workset.ToGlobal:
				default:
					rel, err := s.Repo.RepoPath(filepath.Join(s.Repo.Root, filepath.FromSlash(to)))
					if err != nil {
						return fmt.Errorf("to: %v; name self, parent, root, group, global, or a document inside the repository", err)
					}
					to = rel
				}
				we, err := wenv(s)
				if err != nil {
					return err
				}
				plan, err := workset.PlanPromote(ctx, we, in.Workset, workset.PromoteOptions{To: to, Agent: in.Agent, ADR: in.ADR,
					Scope: s.Scope, GlobalDocument: s.Cfg.Context.Scopes.GlobalDocument})
				if err != nil {
					return err
				}
				if !in.Apply {
					out.Promote = newPromoteJSON(plan)
					out.Promote.DryRun, out.Promote.Diff = true, plan.Diff()
					txt = render(func(b *bytes.Buffer) { printOutcomes(b, plan, "dry run") }) + out.Promote.Diff
					return nil
				}
				res, err := promoteApply(ctx, s, plan)
				if err != nil {
					return err
				}
				out.Promote = res.out
				switch {
				case res.refused:
					return fmt.Errorf("promote would leave %s canon check reports in the written files; nothing was written: %v", plural(len(res.out.Introduced), "error"), res.out.Introduced)
				case res.werr != nil:
					return fmt.Errorf("%w (written before that: %s)", res.werr, strings.Join(res.out.Written, ", "))
				}
				txt = render(func(b *bytes.Buffer) { printOutcomes(b, plan, "") })
				if len(res.out.Written) > 0 {
					txt += fmt.Sprintf("wrote %s; nothing is committed\n", strings.Join(res.out.Written, ", "))
				}
				return nil
			})
			out.Freshness = f
			if err != nil {
				return nil, out, err
			}
			return text(f, txt), out, nil
		})
}

func ptr[T any](v T) *T { return &v }

// page keeps the first limit items (def when limit is not above zero) and
// says how many it cut.
func page[T any](items []T, limit, def int) ([]T, int) {
	if limit <= 0 {
		limit = def
	}
	kept := items[:min(limit, len(items))]
	if kept == nil {
		kept = []T{}
	}
	return kept, len(items) - len(kept)
}

// queryRun runs a template: the query_run tool and the prompts.
func (m *mcpServer) queryRun(ctx context.Context, in queryIn) (*mcp.CallToolResult, packOut, error) {
	var out packOut
	var md string
	f, err := m.call(ctx, func(s *gitsync.Session) error {
		lib, err := loadLibrary(m.e)
		if err != nil {
			return err
		}
		t, err := lib.Resolve(in.Template)
		if err != nil {
			return err
		}
		ro := graph.RunOptions{Base: graph.OptionsFrom(s.Cfg.Context), Seeds: in.Seeds, Workset: in.Workset,
			WorksetSeeds: func(ctx context.Context, name string) ([]string, error) {
				return workset.SeedKeys(ctx, &workset.Env{Root: s.Repo.Root}, name)
			}}
		if in.Budget > 0 {
			ro.Budget = &in.Budget
		}
		p, err := graph.New(s.Store).RunTemplate(ctx, t, ro)
		if err != nil {
			return err
		}
		out.Pack = p
		md = render(func(b *bytes.Buffer) { p.WriteMarkdown(b) })
		return nil
	})
	out.Freshness = f
	if err != nil {
		return nil, out, graphError(err)
	}
	return text(f, md), out, nil
}

// addResources serves the canonical Markdown of a document and a
// workset's plan and notes.
func (m *mcpServer) addResources() {
	m.server.AddResourceTemplate(&mcp.ResourceTemplate{Name: "doc", URITemplate: "canon://doc/{key}", MIMEType: "text/markdown",
		Description: "A document's Markdown, by node key, id or path."},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			uri := req.Params.URI
			ref := strings.TrimPrefix(uri, "canon://doc/")
			var data []byte
			_, err := m.call(ctx, func(s *gitsync.Session) error {
				doc, err := findRef(ctx, s, ref, "the search tool")
				if err != nil {
					return mcp.ResourceNotFoundError(uri)
				}
				data, err = os.ReadFile(filepath.Join(s.Repo.Root, filepath.FromSlash(doc.Path)))
				return err
			})
			if err != nil {
				return nil, err
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: string(data)}}}, nil
		})
	for _, f := range []string{"plan", "notes"} {
		m.server.AddResourceTemplate(&mcp.ResourceTemplate{Name: "workset-" + f, URITemplate: "canon://workset/{name}/" + f, MIMEType: "text/markdown",
			Description: "A workset's " + f + ".md."},
			func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				uri := req.Params.URI
				name := strings.TrimSuffix(strings.TrimPrefix(uri, "canon://workset/"), "/"+f)
				dir, err := workset.Folder(m.s.Repo.Root, name)
				if err != nil {
					return nil, mcp.ResourceNotFoundError(uri)
				}
				data, err := os.ReadFile(filepath.Join(dir, f+".md"))
				if err != nil {
					return nil, mcp.ResourceNotFoundError(uri)
				}
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: string(data)}}}, nil
			})
	}
}

// addPrompts makes a prompt of each query template: its pack, ready to
// read, with the seeds or workset given as arguments.
func (m *mcpServer) addPrompts() error {
	lib, err := loadLibrary(m.e)
	if err != nil {
		return err
	}
	for _, name := range lib.Names() {
		t, err := lib.Resolve(name)
		if err != nil {
			continue // a broken template of the repository's: canon query validate says why
		}
		name := name
		m.server.AddPrompt(&mcp.Prompt{Name: name, Description: strings.TrimSpace(t.Description),
			Arguments: []*mcp.PromptArgument{
				{Name: "seed", Description: "a document to start from instead of the template's anchors"},
				{Name: "workset", Description: "the workset an anchor workset: $workset means"},
			}},
			func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				in := queryIn{Template: name, Workset: req.Params.Arguments["workset"]}
				if sd := req.Params.Arguments["seed"]; sd != "" {
					in.Seeds = []string{sd}
				}
				res, _, err := m.queryRun(ctx, in)
				if err != nil {
					return nil, err
				}
				return &mcp.GetPromptResult{Description: t.Description, Messages: []*mcp.PromptMessage{{Role: "user", Content: res.Content[0]}}}, nil
			})
	}
	return nil
}

package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/hooks"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/check"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/workset"
)

// Fresh is the freshness every tool's structured output ends with.
type Fresh struct {
	Freshness Freshness `json:"freshness"`
}

func (f *Fresh) fresh() *Freshness { return &f.Freshness }

// add registers a tool: its handler makes its call on the session caught
// up with HEAD, fills out and returns the compact text; the result is out
// with its freshness and the text with a freshness line.
//
// The input is checked as the SDK's typed tools check it (the schema
// inferred from In, then decoded); the output is marshalled once. The
// SDK's typed tools would decode that JSON again into maps, check it
// against the output schema, and marshal the maps: a third of what a
// context pack's call cost beyond the pack (ADR-0023). Each output's shape
// is fixed by its Go type; TestMCPOutputSchemas checks every tool's
// answers against their schemas.
func add[In, Out any, PO interface {
	*Out
	fresh() *Freshness
}](m *Server, t *mcp.Tool, fn func(ctx context.Context, s *gitsync.Session, in In, out PO) (string, error)) {
	schema, err := jsonschema.For[In](&jsonschema.ForOptions{})
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", t.Name, err))
	}
	input, err := schema.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", t.Name, err))
	}
	t.InputSchema = schema
	how := writes
	switch {
	case t.Annotations == nil || !t.Annotations.ReadOnlyHint:
	case aloneTools[t.Name]:
		how = alone
	default:
		how = shared
	}
	m.server.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		in, err := decodeArgs[In](req.Params.Arguments, input)
		if err != nil {
			return failed(err), nil
		}
		if err := bound(&in); err != nil {
			return nil, err
		}
		var out Out
		var txt string
		f, err := m.call(ctx, how, func(ctx context.Context, s *gitsync.Session) error {
			var err error
			txt, err = fn(ctx, s, in, &out)
			return err
		})
		*PO(&out).fresh() = f
		if err != nil {
			return failed(explain(err)), nil
		}
		data, err := json.Marshal(out)
		if err != nil {
			return nil, fmt.Errorf("marshaling output: %w", err)
		}
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: strings.TrimRight(txt, "\n") + "\n(" + f.text() + ")"}},
			StructuredContent: json.RawMessage(data),
		}, nil
	})
}

// aloneTools are the read-only tools that answer in their turn: check
// lays its change over the index under the index's writer lock, of which a
// process has one (Store.Lock); status asks whether the index is behind,
// which refreshes the store's file as a catch-up does; id_next syncs the
// working tree (hooks.Next).
var aloneTools = map[string]bool{"check": true, "status": true, "id_next": true}

// decodeArgs checks a call's arguments against the input schema, with the
// SDK's words for what is wrong, and decodes them. The schema admits no
// property it does not name, so decoding cannot match a name in another
// case.
func decodeArgs[In any](raw json.RawMessage, schema *jsonschema.Resolved) (In, error) {
	var in In
	args := map[string]any{}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &args); err != nil {
			return in, fmt.Errorf("validating \"arguments\": unmarshaling arguments: %w", err)
		}
	}
	if err := schema.ApplyDefaults(&args); err != nil {
		return in, fmt.Errorf("validating \"arguments\": applying schema defaults:\n%w", err)
	}
	if err := schema.Validate(&args); err != nil {
		return in, fmt.Errorf("validating \"arguments\": %w", err)
	}
	data, err := json.Marshal(args)
	if err == nil {
		err = json.Unmarshal(data, &in)
	}
	return in, err
}

// failed is a tool's answer that it could not do what was asked.
func failed(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(err)
	return &res
}

// explain makes an error the sentence an agent reads, with what it can do
// about it (gitsync.Explain's, as the CLI's).
func explain(err error) error {
	var nf *index.NotFoundError
	if errors.As(err, &nf) {
		return fmt.Errorf("%w; try the search tool", err)
	}
	return errors.New(cliWords.Replace(gitsync.Explain(err, "")))
}

// cliWords turns the command line's options that use cases name in their
// messages into the arguments of the MCP tools and prompts.
var cliWords = strings.NewReplacer("--namespace ", "namespace ", "--workset NAME", "the workset argument", "--seed ID", "a seed", "Give --seed", "Give a seed")

var (
	readOnly    = &mcp.ToolAnnotations{ReadOnlyHint: true}
	writing     = &mcp.ToolAnnotations{DestructiveHint: ptr(false)}
	destructive = &mcp.ToolAnnotations{DestructiveHint: ptr(true)}
)

func ptr[T any](v T) *T { return &v }

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

// rendered is what a text renderer writes.
func rendered(v interface{ WriteText(w io.Writer) error }) string {
	var b strings.Builder
	_ = v.WriteText(&b) // a strings.Builder takes every write
	return b.String()
}

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

type (
	searchIn struct {
		Query string `json:"query" jsonschema:"words to find"`
		Limit int    `json:"limit,omitempty" jsonschema:"default 10, at most 50"`
		Kind  string `json:"kind,omitempty" jsonschema:"task, adr, doc, ..."`
	}
	searchOut struct {
		Hits      []index.Hit    `json:"hits"`
		Truncated bool           `json:"truncated"`
		Read      *index.Reading `json:"read,omitempty"`
		Fresh
	}
	refIn struct {
		Ref  string `json:"ref" jsonschema:"id, uid, key or path"`
		Text bool   `json:"text,omitempty" jsonschema:"with section texts"`
	}
	showOut struct {
		Doc      *index.DocView         `json:"doc"`
		Branches []index.RefDoc         `json:"branches"` // its versions on other refs (ADR-0042)
		Overlay  *gitsync.OverlayStatus `json:"overlay"`
		Fresh
	}
	contextIn struct {
		Query  string   `json:"query,omitempty" jsonschema:"search for seeds"`
		Seeds  []string `json:"seeds,omitempty" jsonschema:"documents to start from"`
		For    string   `json:"for,omitempty" jsonschema:"a task, with its scope"`
		Budget int      `json:"budget,omitempty" jsonschema:"estimated tokens"`
		// Generated lets generated documents (dashboards, index stubs) be
		// seeds and neighbours, as canon context --generated does.
		Generated bool `json:"generated,omitempty" jsonschema:"let generated documents in"`
	}
	packOut struct {
		Pack any `json:"pack"`
		Fresh
	}
	neighborsIn struct {
		Ref       string   `json:"ref" jsonschema:"id, uid, key or path"`
		Depth     int      `json:"depth,omitempty" jsonschema:"1 to 4"`
		Edges     []string `json:"edges,omitempty" jsonschema:"edge types"`
		Direction string   `json:"direction,omitempty" jsonschema:"out, in, both"`
	}
	neighborsOut struct {
		Root   index.DocRef    `json:"root"`
		Nodes  []graph.Reached `json:"nodes"`
		Capped bool            `json:"capped"`
		Fresh
	}
	workIn struct {
		Kinds []string `json:"kinds,omitempty" jsonschema:"default: work kinds"`
		Limit int      `json:"limit,omitempty" jsonschema:"default work.limit, 20"`
		All   bool     `json:"all,omitempty" jsonschema:"every item"`
		Here  bool     `json:"here,omitempty" jsonschema:"this checkout only"`
	}
	readyOut struct {
		Items        []graph.Item           `json:"items"`
		Truncated    int                    `json:"truncated"`
		BlockedCount int                    `json:"blocked_count"`
		Unknown      []graph.StateCount     `json:"unknown_states"`
		Claimed      []graph.ClaimedItem    `json:"claimed"` // left out: taken on another ref (ADR-0042)
		Overlay      *gitsync.OverlayStatus `json:"overlay,omitempty"`
		Fresh
	}
	blockedOut struct {
		Items      []graph.BlockedItem `json:"items"`
		Truncated  int                 `json:"truncated"`
		ReadyCount int                 `json:"ready_count"`
		Unknown    []graph.StateCount  `json:"unknown_states"`
		// DoneElsewhere are blockers another ref has finished, by key.
		DoneElsewhere map[string][]graph.Claim `json:"done_elsewhere,omitempty"`
		Overlay       *gitsync.OverlayStatus   `json:"overlay,omitempty"`
		Fresh
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
		Fresh
	}
	noIn      struct{}
	statusOut struct {
		Documents int `json:"documents"`
		Kinds     any `json:"kinds"`
		Fresh
	}
	queryIn struct {
		Template string   `json:"template" jsonschema:"a query template"`
		Seeds    []string `json:"seeds,omitempty" jsonschema:"replace the anchors"`
		Workset  string   `json:"workset,omitempty" jsonschema:"for workset: $workset anchors"`
		Budget   int      `json:"budget,omitempty" jsonschema:"estimated tokens"`
	}
	worksetIn struct {
		Name string `json:"name" jsonschema:"the workset"`
	}
	resumeIn struct {
		Name   string `json:"name" jsonschema:"the workset"`
		Budget int    `json:"budget,omitempty" jsonschema:"estimated tokens (2000)"`
	}
	worksetsOut struct {
		Worksets []workset.Info `json:"worksets"`
		Fresh
	}
	worksetOut struct {
		Workset *workset.Detail `json:"workset"`
		Fresh
	}
	resumeOut struct {
		Resume *workset.Resume `json:"resume"`
		Fresh
	}
	worksetContextIn struct {
		Name   string `json:"name" jsonschema:"the workset"`
		Query  string `json:"query,omitempty" jsonschema:"more seeds"`
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
		Workset *workset.Info `json:"workset"`
		Fresh
	}
	noteIn struct {
		Workset string `json:"workset"`
		Target  string `json:"target" jsonschema:"the document (id, uid, path)"`
		Kind    string `json:"kind,omitempty" jsonschema:"decision, risk, finding; none: worklog"`
		Text    string `json:"text"`
		Expect  string `json:"expect,omitempty" jsonschema:"notes_hash last seen"`
	}
	noteOut struct {
		Note *workset.NoteResult `json:"note"`
		Fresh
	}
	promoteIn struct {
		Workset string `json:"workset"`
		To      string `json:"to,omitempty" jsonschema:"self, parent, root, group, global, or a path"`
		Agent   string `json:"agent,omitempty" jsonschema:"named in worklog lines"`
		ADR     bool   `json:"adr,omitempty" jsonschema:"decisions become ADRs"`
		Apply   bool   `json:"apply,omitempty" jsonschema:"write; else only the diff"`
	}
	promoteOut struct {
		Promote *workset.Promoted `json:"promote"`
		Fresh
	}
)

// negative refuses a number below zero an agent gave; 0 is what JSON sends
// for an argument left out, so it means the default.
// query is the ready or blocked question, as canon ready and canon
// blocked ask it.
func (in workIn) query(ctx context.Context, s *gitsync.Session) (graph.WorkQuery, error) {
	if err := negative("limit", in.Limit); err != nil {
		return graph.WorkQuery{}, err
	}
	if in.Limit > 0 && in.All {
		return graph.WorkQuery{}, errors.New("limit and all say different things; give one")
	}
	q := graph.WorkQuery{WorkOptions: graph.WorkOptionsOf(s.Cfg, in.Kinds), Limit: in.Limit, All: in.All}
	var err error
	q.Elsewhere, err = hooks.Elsewhere(ctx, s, in.Here)
	return q, err
}

func negative(name string, v int) error {
	if v < 0 {
		return fmt.Errorf("%s is %d; give a positive number, or leave it out for the default", name, v)
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// worksetEnv describes the session to the workset operations.
func worksetEnv(ctx context.Context, s *gitsync.Session) (*workset.Env, error) {
	return workset.NewEnv(ctx, s.Repo.Root, s.Store, s.Cfg, "canon mcp", s.Repo)
}

func (m *Server) addTools() {
	m.addClaimsTool()
	m.addIDTool()
	add(m, &mcp.Tool{Name: "search", OutputSchema: outSchema("hits:array", "truncated:boolean", "read:object"), Description: "Search: a question or keywords.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in searchIn, out *searchOut) (string, error) {
			if err := negative("limit", in.Limit); err != nil {
				return "", err
			}
			limit := in.Limit
			if limit <= 0 {
				limit = 10
			}
			limit = min(limit, 50)
			var hits []index.Hit
			f, err := s.Store.SearchRead(ctx, in.Query, index.SearchOptions{Limit: limit + 1, Kind: in.Kind})
			if f != nil {
				hits, out.Read = f.Hits, f.Read
			}
			if len(hits) > limit {
				hits, out.Truncated = hits[:limit], true
			}
			out.Hits = hits
			if out.Hits == nil {
				out.Hits = []index.Hit{} // the schema says array: no matches is [], not null
			}
			if err != nil {
				return "", err
			}
			var b strings.Builder
			if out.Read != nil && out.Read.Line() != "" {
				fmt.Fprintln(&b, out.Read.Line())
			}
			for _, h := range out.Hits {
				fmt.Fprintf(&b, "%s  %s  #%s  %s\n", h.ID, h.Title, h.Slug, h.Snippet)
			}
			if len(out.Hits) == 0 {
				fmt.Fprintf(&b, "no matches for %q\n", in.Query)
			}
			if out.Truncated {
				fmt.Fprintf(&b, "(more hits past the limit of %d)\n", limit)
			}
			return b.String(), nil
		})

	add(m, &mcp.Tool{Name: "show", OutputSchema: outSchema("doc:object"), Description: "One document: frontmatter, edges, sections, problems.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in refIn, out *showOut) (string, error) {
			var err error
			if out.Doc, err = s.Show(ctx, in.Ref, in.Text); err != nil {
				return "", err
			}
			if out.Branches, out.Overlay, err = versionsOn(ctx, s, out.Doc.Path); err != nil {
				return "", err
			}
			return rendered(out.Doc) + graph.VersionsText(out.Branches, out.Overlay), nil
		})

	add(m, &mcp.Tool{Name: "context", OutputSchema: outSchema("pack:object"), Description: "A context pack from a search, seeds or a task (for).", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in contextIn, out *packOut) (string, error) {
			if err := negative("budget", in.Budget); err != nil {
				return "", err
			}
			if in.For != "" && (in.Query != "" || len(in.Seeds) > 0) {
				return "", errors.New("give for (a task and its scope), or query and seeds, not both")
			}
			opt := graph.OptionsFrom(s.Cfg.Context)
			if in.Budget > 0 {
				opt.Budget = in.Budget
			}
			opt.IncludeGenerated = opt.IncludeGenerated || in.Generated
			g := graph.New(s.Store)
			var p *graph.Pack
			var err error
			switch {
			case in.For != "":
				p, err = g.ScopedPack(ctx, graph.ScopedArgs{For: in.For, Options: opt, Shares: s.Cfg.Context.Scopes,
					CommitPaths: func(ctx context.Context, t index.DocRef) ([]string, error) { return s.Repo.CommitPaths(ctx, t.ID, 200) }})
			case in.Query == "" && len(in.Seeds) == 0:
				return "", errors.New("context needs a query, seeds or for")
			default:
				opt.Query, opt.Seeds = in.Query, in.Seeds
				p, err = g.Pack(ctx, opt)
			}
			if err != nil {
				return "", err
			}
			out.Pack = p
			return rendered(p), nil
		})

	add(m, &mcp.Tool{Name: "neighbors", OutputSchema: outSchema("root:object", "nodes:array", "capped:boolean"), Description: "Documents around one, along typed edges.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in neighborsIn, out *neighborsOut) (string, error) {
			if err := negative("depth", in.Depth); err != nil {
				return "", err
			}
			if in.Depth > 4 {
				return "", fmt.Errorf("depth is at most 4 (%d given): four hops already reach most of a backlog", in.Depth)
			}
			depth := in.Depth
			if depth <= 0 {
				depth = 1
			}
			dir, err := graph.ParseDirection(in.Direction)
			if err != nil {
				return "", err
			}
			n, err := graph.New(s.Store).Neighbors(ctx, in.Ref, graph.ExpandOptions{Depth: min(depth, 4), Edges: in.Edges, Direction: dir, MaxNodes: 100})
			if err != nil {
				return "", err
			}
			out.Root, out.Nodes, out.Capped = n.Root, n.Nodes, n.NodeCapped
			return rendered(n), nil
		})

	add(m, &mcp.Tool{Name: "ready", OutputSchema: outSchema("items:array", "truncated:integer", "blocked_count:integer", "unknown_states:array"), Description: "Open work nothing blocks, less what other refs took.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in workIn, out *readyOut) (string, error) {
			out.Items, out.Unknown = []graph.Item{}, []graph.StateCount{}
			q, err := in.query(ctx, s)
			if err != nil {
				return "", err
			}
			r, err := graph.New(s.Store).Ready(ctx, q)
			if err != nil {
				return "", err
			}
			out.Items, out.Truncated, out.BlockedCount, out.Unknown = r.Ready, r.Truncated, r.BlockedCount, r.Unknown
			out.Claimed = r.Claimed
			out.Overlay, _ = r.Overlay.(*gitsync.OverlayStatus) // nil: no other ref
			if out.Claimed == nil {
				out.Claimed = []graph.ClaimedItem{}
			}
			return rendered(r), nil
		})
	add(m, &mcp.Tool{Name: "blocked", OutputSchema: outSchema("items:array", "truncated:integer", "ready_count:integer", "unknown_states:array"), Description: "Open work something blocks, with the blockers.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in workIn, out *blockedOut) (string, error) {
			out.Items, out.Unknown = []graph.BlockedItem{}, []graph.StateCount{}
			q, err := in.query(ctx, s)
			if err != nil {
				return "", err
			}
			b, err := graph.New(s.Store).Blocked(ctx, q)
			if err != nil {
				return "", err
			}
			out.Items, out.Truncated, out.ReadyCount, out.Unknown = b.Blocked, b.Truncated, b.ReadyCount, b.Unknown
			out.DoneElsewhere = b.DoneElsewhere
			out.Overlay, _ = b.Overlay.(*gitsync.OverlayStatus) // nil: no other ref
			return rendered(b), nil
		})

	add(m, &mcp.Tool{Name: "check", OutputSchema: outSchema("summary:object", "findings:array", "truncated:integer"), Description: "Validate documents: staged, paths, or all.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in checkIn, out *checkOut) (string, error) {
			if err := negative("limit", in.Limit); err != nil {
				return "", err
			}
			if n := btoi(in.Staged) + btoi(in.All) + btoi(len(in.Paths) > 0); n > 1 {
				return "", errors.New("check takes one of staged: true, paths, all: true")
			}
			var res *check.Result
			var err error
			switch {
			case in.Staged:
				res, err = s.CheckStaged(ctx, true, nil)
			case in.All:
				res, err = s.CheckAll(ctx)
			case len(in.Paths) > 0:
				res, err = s.CheckPaths(ctx, in.Paths)
			default:
				return "", errors.New("check needs staged: true, paths, or all: true")
			}
			if err != nil {
				return "", err
			}
			out.Summary = res.Summary()
			out.Findings, out.Truncated = page(res.Findings, in.Limit, 50)
			var b strings.Builder
			for _, fd := range out.Findings {
				fmt.Fprintln(&b, fd)
			}
			fmt.Fprintf(&b, "%s, %s in %s (%s checked)\n", human.Plural(out.Summary.Errors, "error"), human.Plural(out.Summary.Warnings, "warning"),
				human.Plural(out.Summary.Files, "file"), human.Plural(out.Summary.Checked, "file"))
			return b.String() + cut(out.Truncated, "more findings"), nil
		})

	add(m, &mcp.Tool{Name: "status", OutputSchema: outSchema("documents:integer", "kinds:object"), Description: "The index: commit, counts, freshness.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, _ noIn, out *statusOut) (string, error) {
			st, err := s.Status(ctx)
			if err != nil {
				return "", err
			}
			out.Documents, out.Kinds = st.Documents, st.Kinds
			return fmt.Sprintf("%s indexed at %s; HEAD %s", human.Plural(out.Documents, "document"), human.Commit(st.IndexedHead), human.Commit(st.Head)), nil
		})

	add(m, &mcp.Tool{Name: "query_run", OutputSchema: outSchema("pack:object"), Description: "Run a query template.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in queryIn, out *packOut) (string, error) {
			p, err := runTemplate(ctx, s, in)
			if err != nil {
				return "", err
			}
			out.Pack = p
			return rendered(p), nil
		})

	m.addWorksetTools()
}

// cut says how many items a bounded list left out.
func cut(n int, what string) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf("(%d %s past the limit)\n", n, what)
}

// runTemplate runs a query template: the query_run tool and the prompts.
func runTemplate(ctx context.Context, s *gitsync.Session, in queryIn) (*graph.Pack, error) {
	if err := negative("budget", in.Budget); err != nil {
		return nil, err
	}
	lib, err := graph.RepoLibrary(s.Repo.Root)
	if err != nil {
		return nil, err
	}
	t, err := lib.Resolve(in.Template)
	if err != nil {
		return nil, err
	}
	ro := graph.RunOptions{Seeds: in.Seeds, Workset: in.Workset}
	if in.Budget > 0 {
		ro.Budget = &in.Budget
	}
	return hooks.TemplateRun(ctx, s, t, ro, nil)
}

func (m *Server) addWorksetTools() {
	add(m, &mcp.Tool{Name: "workset_list", OutputSchema: outSchema("worksets:array"), Description: "The worksets: seeds, size, staleness, findings.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, _ noIn, out *worksetsOut) (string, error) {
			we, err := worksetEnv(ctx, s)
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
				fmt.Fprintf(&b, "%s  %s  %s, seeds %s, %d unpromoted\n", w.Name, state, human.Plural(w.Docs, "document"), strings.Join(w.Seeds, ","), w.Unpromoted)
			}
			if len(out.Worksets) == 0 {
				b.WriteString("no worksets\n")
			}
			return b.String(), nil
		})
	add(m, &mcp.Tool{Name: "workset_show", OutputSchema: outSchema("workset:object"), Description: "One workset: members and why, stale reasons, findings.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in worksetIn, out *worksetOut) (string, error) {
			we, err := worksetEnv(ctx, s)
			if err != nil {
				return "", err
			}
			if out.Workset, err = workset.Show(ctx, we, in.Name); err != nil {
				return "", err
			}
			w := out.Workset
			var b strings.Builder
			fmt.Fprintf(&b, "workset %s: %s, %d findings (%d unpromoted)\n", w.Name, human.Plural(w.Docs, "document"), w.Info.Findings, w.Unpromoted)
			for _, r := range w.StaleReasons {
				fmt.Fprintf(&b, "stale: %s\n", r)
			}
			for _, mb := range w.Members {
				fmt.Fprintf(&b, "  %s  %s  [%s]\n", mb.ID, mb.Title, mb.Kind)
			}
			return b.String(), nil
		})
	add(m, &mcp.Tool{Name: "workset_resume", OutputSchema: outSchema("resume:object"), Description: "Where a workset's task stands: goal, plan, decisions, changes.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in resumeIn, out *resumeOut) (string, error) {
			if err := negative("budget", in.Budget); err != nil {
				return "", err
			}
			we, err := worksetEnv(ctx, s)
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
	add(m, &mcp.Tool{Name: "workset_context", OutputSchema: outSchema("pack:object"), Description: "A context pack from a workset's own documents.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in worksetContextIn, out *packOut) (string, error) {
			if err := negative("budget", in.Budget); err != nil {
				return "", err
			}
			we, err := worksetEnv(ctx, s)
			if err != nil {
				return "", err
			}
			opt := workset.ContextOptions{Query: in.Query}
			if in.Budget > 0 {
				opt.Budget = &in.Budget
			}
			p, _, err := workset.Context(ctx, we, in.Name, opt)
			if err != nil {
				return "", err
			}
			out.Pack = p
			return rendered(p), nil
		})
	add(m, &mcp.Tool{Name: "workset_new", Description: "A workset for a task: seeds, a search or a template.", OutputSchema: outSchema("workset:object"), Annotations: writing},
		func(ctx context.Context, s *gitsync.Session, in worksetNewIn, out *worksetNewOut) (string, error) {
			we, err := worksetEnv(ctx, s)
			if err != nil {
				return "", err
			}
			if out.Workset, err = workset.Create(ctx, we, in.Name, workset.CreateOptions{
				Spec: workset.Spec{Seeds: in.Seeds, Query: in.Query, Template: in.Template}, Agent: in.Agent}); err != nil {
				return "", err
			}
			w := out.Workset
			return fmt.Sprintf("created workset %s: %s, seeds %s; notes go to %s/notes.md", w.Name, human.Plural(w.Docs, "document"), strings.Join(w.Seeds, ", "), w.Path), nil
		})
	add(m, &mcp.Tool{Name: "note", Description: "Append a finding to a workset's notes.", OutputSchema: outSchema("note:object"), Annotations: writing},
		func(ctx context.Context, s *gitsync.Session, in noteIn, out *noteOut) (string, error) {
			we, err := worksetEnv(ctx, s)
			if err != nil {
				return "", err
			}
			if out.Note, err = workset.AppendNote(ctx, we, in.Workset, workset.NoteArgs{Target: in.Target, Kind: in.Kind, Text: in.Text, Expect: in.Expect}); err != nil {
				return "", err
			}
			return "appended: " + out.Note.Line, nil
		})
	add(m, &mcp.Tool{Name: "promote", Description: "Promote a workset's findings: a diff, or apply.", OutputSchema: outSchema("promote:object"), Annotations: destructive},
		promote)
}

// promote shows the promote of a workset (a dry run) or makes it (apply).
func promote(ctx context.Context, s *gitsync.Session, in promoteIn, out *promoteOut) (string, error) {
	to := in.To
	switch to {
	case "", workset.ToSelf, workset.ToParent, workset.ToRoot, workset.ToGroup, workset.ToGlobal:
	default:
		rel, err := s.Repo.RepoPath(filepath.Join(s.Repo.Root, filepath.FromSlash(to)))
		if err != nil {
			return "", fmt.Errorf("to: %w; name self, parent, root, group, global, or a document inside the repository", err)
		}
		to = rel
	}
	we, err := worksetEnv(ctx, s)
	if err != nil {
		return "", err
	}
	p, err := workset.PromoteWorkset(ctx, s, we, workset.PromoteArgs{Workset: in.Workset, To: to, Agent: in.Agent, ADR: in.ADR, Apply: in.Apply})
	if err != nil {
		return "", err
	}
	out.Promote = p
	var b strings.Builder
	switch {
	case p.DryRun:
		p.WriteOutcomes(&b, "dry run")
		return b.String() + p.Diff, nil
	case p.Refused:
		return "", fmt.Errorf("promote would leave %s canon check reports in the written files; nothing was written: %v", human.Plural(len(p.Introduced), "error"), p.Introduced)
	}
	// As canon promote says it: the outcomes, what was written, and what
	// canon check then reports in those files (and whether promote put it
	// there).
	return rendered(p), nil
}

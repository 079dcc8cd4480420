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

	"github.com/canon-md/canon/cmd/internal/usecase"
	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/check"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/search"
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
			return failed(err), nil // a tool error, as every other refusal of an argument
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
			return failed(errors.New(inToolWords(t.Name, explain(err).Error()))), nil
		}
		data, err := json.Marshal(out)
		if err != nil {
			return nil, fmt.Errorf("marshaling output: %w", err)
		}
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: strings.TrimRight(inToolWords(t.Name, txt), "\n") + "\n(" + f.text() + ")"}},
			StructuredContent: json.RawMessage(data),
		}, nil
	})
}

// showBudget is the tokens of section text show gives an agent unless
// it asks for another budget.
const showBudget = 4000

// aloneTools are the read-only tools that answer in their turn: check
// lays its change over the index under the index's writer lock, of which a
// process has one (Store.Lock); status asks whether the index is behind,
// which refreshes the store's file as a catch-up does; id_next syncs the
// working tree (usecase.Next).
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
	var ae *gitsync.ArgsError
	var oe *graph.OptionError
	if errors.As(err, &ae) || errors.As(err, &oe) {
		return errors.New(argWords.Replace(err.Error())) // a use case's words for its arguments
	}
	return errors.New(cliWords.Replace(gitsync.Explain(err, "")))
}

// cliWords turns the command line's options that use cases name in their
// messages into the arguments of the MCP tools and prompts.
var cliWords = strings.NewReplacer("--namespace ", "namespace ", "--workset NAME", "the workset argument", "--seed ID", "a seed", "Give --seed", "Give a seed")

// argWords turns the command line's flags that the shared use cases name
// when they refuse their arguments (gitsync.ArgsError, graph.OptionError)
// into the tools' arguments.
var argWords = strings.NewReplacer("--limit and --all", "limit and all", "--seed ID", "seeds", "--seed", "seeds", "--for", "for", "--all", "all: true", "--limit", "limit",
	"--max-nodes", "max_nodes", "canon context", "context", "--", "")

var (
	readOnly    = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}
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
func rendered(v output) string {
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
	// Each tool's answer is the result type of canon's command for the
	// same action (its --json), with the freshness; a field beside it is
	// the tool's own (its comment says why).
	searchOut struct {
		*search.Found
		Truncated bool `json:"truncated"` // more hits past the limit: the tool asks one more
		Fresh
	}
	showIn struct {
		Ref    string `json:"ref" jsonschema:"id, uid, key or path"`
		Text   bool   `json:"text,omitempty" jsonschema:"section texts"`
		Budget int    `json:"budget,omitempty" jsonschema:"default 4000 tokens"`
	}
	showOut struct {
		*graph.Versions // canon show --branches: its versions on other refs (ADR-0042)
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
		*graph.Pack
		Fresh
	}
	neighborsIn struct {
		Ref       string   `json:"ref" jsonschema:"id, uid, key or path"`
		Depth     int      `json:"depth,omitempty" jsonschema:"1 to 4"`
		Edges     []string `json:"edges,omitempty" jsonschema:"edge types"`
		Direction string   `json:"direction,omitempty" jsonschema:"out, in, both"`
	}
	neighborsOut struct {
		*graph.Neighbors
		Fresh
	}
	workIn struct {
		Kinds []string `json:"kinds,omitempty" jsonschema:"default: work kinds"`
		Limit int      `json:"limit,omitempty" jsonschema:"default work.limit, 20"`
		All   bool     `json:"all,omitempty" jsonschema:"every item"`
		Here  bool     `json:"here,omitempty" jsonschema:"this checkout only"`
	}
	readyOut struct {
		*graph.ReadyList
		Fresh
	}
	blockedOut struct {
		*graph.BlockedList
		Fresh
	}
	checkIn struct {
		Staged bool     `json:"staged,omitempty" jsonschema:"the staged change; new problems only"`
		Paths  []string `json:"paths,omitempty" jsonschema:"working-tree files or folders"`
		All    bool     `json:"all,omitempty" jsonschema:"every document"`
		Limit  int      `json:"limit,omitempty" jsonschema:"default 50"`
	}
	checkOut struct {
		check.ReportJSON
		Truncated int `json:"truncated"` // findings past the limit (the tool's own)
		Fresh
	}
	noIn      struct{}
	statusOut struct {
		*gitsync.Status
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
		Worksets []workset.Info `json:"worksets"` // workset.Listing's JSON
		Fresh
	}
	worksetOut struct {
		*workset.Detail
		Fresh
	}
	resumeOut struct {
		*workset.Resume
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
		*workset.Created
		Fresh
	}
	noteIn struct {
		Workset string `json:"workset"`
		Target  string `json:"target" jsonschema:"the document (id, uid, path)"`
		Kind    string `json:"kind,omitempty" jsonschema:"decision, risk, finding, or worklog (the default)"`
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
		*workset.Promoted
		Fresh
	}
)

// negative refuses a number below zero an agent gave; 0 is what JSON sends
// for an argument left out, so it means the default.
func negative(name string, v int) error {
	if v < 0 {
		return fmt.Errorf("%s is %d; give a positive number, or leave it out for the default", name, v)
	}
	return nil
}

// limitOr is a limit an agent gave, or def when it left it out (0).
func limitOr(limit, def int) int {
	if limit <= 0 {
		return def
	}
	return limit
}

// worksetEnv describes the session to the workset operations.
func worksetEnv(ctx context.Context, s *gitsync.Session) (*workset.Env, error) {
	return workset.NewEnv(ctx, s.Repo.Root, s.Store, s.Cfg, "canon mcp", s.Repo)
}

// addTools registers every tool, a group of them at a time: the claims and
// id tools, those that read documents, those that list work, those that
// ask the index, and those of the worksets.
func (m *Server) addTools() {
	m.addClaimsTool()
	m.addIDTool()
	m.addDocumentTools()
	m.addWorkTools()
	m.addIndexTools()
	m.addWorksetTools()
	m.addItemTools()
}

// addDocumentTools registers the tools that find and read documents:
// search, show, context and neighbors.
func (m *Server) addDocumentTools() {
	add(m, &mcp.Tool{Name: "search", OutputSchema: outSchema("hits:array", "truncated:boolean"), Description: "Search: a question or keywords.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in searchIn, out *searchOut) (string, error) {
			if err := negative("limit", in.Limit); err != nil {
				return "", err
			}
			limit := min(limitOr(in.Limit, 10), 50) // an agent's bound; canon search has none
			var err error
			out.Found, err = search.Search(ctx, s.Store, in.Query, search.Options{Limit: limit + 1, Kind: in.Kind})
			if err != nil {
				return "", err
			}
			if len(out.Hits) > limit {
				out.Hits, out.Truncated = out.Hits[:limit], true
				out.Reread() // the reading's match is of the hits shown, not of the one more asked
			}
			txt := rendered(out.Found)
			if out.Truncated {
				txt += fmt.Sprintf("(more hits past the limit of %d)\n", limit)
			}
			return txt, nil
		})

	add(m, &mcp.Tool{Name: "show", OutputSchema: outSchema("branches:array"), Description: "One document: frontmatter, edges, sections, problems.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in showIn, out *showOut) (string, error) {
			if err := negative("budget", in.Budget); err != nil {
				return "", err
			}
			v, err := s.Show(ctx, s.Repo.RootRef(in.Ref), in.Text)
			if err != nil {
				return "", err
			}
			usecase.ClipText(v, limitOr(in.Budget, showBudget)) // one ADR was 16,000 tokens
			if out.Versions, err = usecase.VersionsOn(ctx, s, v); err != nil {
				return "", err
			}
			return rendered(out.Versions), nil
		})

	add(m, &mcp.Tool{Name: "context", OutputSchema: outSchema("entries:array"), Description: "A context pack from a search, seeds or a task (for).", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in contextIn, out *packOut) (string, error) {
			if err := negative("budget", in.Budget); err != nil {
				return "", err
			}
			a := usecase.ContextArgs{Query: in.Query, Seeds: rootRefs(s, in.Seeds), For: s.Repo.RootRef(in.For), Overrides: graph.Overrides{Budget: given(in.Budget)}}
			if in.Generated {
				a.Generated = &in.Generated
			}
			var err error
			if out.Pack, err = usecase.Context(ctx, s, a); err != nil {
				return "", err
			}
			return rendered(out.Pack), nil
		})

	add(m, &mcp.Tool{Name: "neighbors", OutputSchema: outSchema("root:object", "nodes:array"), Description: "Documents around one, along typed edges.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in neighborsIn, out *neighborsOut) (string, error) {
			// An agent's bounds: four hops, a hundred documents (canon
			// graph neighbors has neither).
			if err := negative("depth", in.Depth); err != nil {
				return "", err
			}
			if in.Depth > 4 {
				return "", fmt.Errorf("depth is at most 4 (%d given): four hops already reach most of a backlog", in.Depth)
			}
			o := graph.Overrides{Depth: given(in.Depth), MaxNodes: ptr(100)}
			if len(in.Edges) > 0 {
				o.Edges = ptr(strings.Join(in.Edges, ","))
			}
			if in.Direction != "" {
				o.Direction = &in.Direction
			}
			var err error
			if out.Neighbors, err = usecase.Neighbors(ctx, s, s.Repo.RootRef(in.Ref), o); err != nil {
				return "", err
			}
			return rendered(out.Neighbors), nil
		})
}

// addWorkTools registers the tools that list open work: ready and blocked.
func (m *Server) addWorkTools() {
	add(m, &mcp.Tool{Name: "ready", OutputSchema: outSchema("ready:array", "truncated:integer", "blocked_count:integer"), Description: "Open work nothing blocks, less what other refs took.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in workIn, out *readyOut) (string, error) {
			q, err := usecase.Work(ctx, s, usecase.WorkArgs(in))
			if err != nil {
				return "", err
			}
			if out.ReadyList, err = graph.New(s.Store).Ready(ctx, q); err != nil {
				return "", err
			}
			txt := rendered(out.ReadyList)
			if len(out.Ready) > 0 {
				// The next step an agent takes: a claim other worktrees see.
				txt += "take one: item_claim with its item and as: your name (commit: true lets other worktrees see it)\n"
			}
			return txt, nil
		})
	add(m, &mcp.Tool{Name: "blocked", OutputSchema: outSchema("blocked:array", "truncated:integer", "ready_count:integer"), Description: "Open work something blocks, with the blockers.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in workIn, out *blockedOut) (string, error) {
			q, err := usecase.Work(ctx, s, usecase.WorkArgs(in))
			if err != nil {
				return "", err
			}
			if out.BlockedList, err = graph.New(s.Store).Blocked(ctx, q); err != nil {
				return "", err
			}
			return rendered(out.BlockedList), nil
		})
}

// addIndexTools registers the tools that ask the index as a whole: check,
// status and query_run.
func (m *Server) addIndexTools() {
	add(m, &mcp.Tool{Name: "check", OutputSchema: outSchema("summary:object", "findings:array", "truncated:integer"), Description: "Validate documents: staged, paths, or all.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in checkIn, out *checkOut) (string, error) {
			if err := negative("limit", in.Limit); err != nil {
				return "", err
			}
			// An agent names what to check: the staged change is canon
			// check's default, not the tool's.
			if !in.Staged && !in.All && len(in.Paths) == 0 {
				return "", errors.New("check needs staged: true, paths, or all: true")
			}
			if in.Staged && (in.All || len(in.Paths) > 0) {
				return "", errors.New("check takes one of staged: true, paths, all: true")
			}
			// Paths are repository-relative (canon check's are relative to
			// the working folder); the rest is canon check's use case.
			args := gitsync.CheckArgs{All: in.All, Paths: gitsync.Distinct(in.Paths)}
			if err := args.Validate(); err != nil {
				return "", err
			}
			res, err := s.Check(ctx, args)
			if err != nil {
				return "", err
			}
			// The compact form: at most limit findings (50), the summary
			// counts them all.
			rep := &check.Report{Result: res, Format: check.FormatText, Limit: limitOr(in.Limit, 50)}
			out.ReportJSON = rep.Shape()
			out.Findings, out.Truncated = page(out.Findings, rep.Limit, rep.Limit)
			return rendered(rep), nil
		})

	add(m, &mcp.Tool{Name: "status", OutputSchema: outSchema("documents:integer", "kinds:object"), Description: "The index: commit, counts, freshness.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, _ noIn, out *statusOut) (string, error) {
			var err error
			if out.Status, err = s.Status(ctx); err != nil {
				return "", err
			}
			return rendered(out.Status), nil
		})

	add(m, &mcp.Tool{Name: "query_run", OutputSchema: outSchema("entries:array"), Description: "Run a query template.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in queryIn, out *packOut) (string, error) {
			var err error
			if out.Pack, err = runTemplate(ctx, s, in); err != nil {
				return "", err
			}
			return rendered(out.Pack), nil
		})
}

// given is a number an agent gave, nil when it left it out (0): the
// configuration's default then applies.
func given(v int) *int {
	if v == 0 {
		return nil
	}
	return &v
}

// rootRefs reads the references an agent gave (Repo.RootRef).
func rootRefs(s *gitsync.Session, refs []string) []string {
	var out []string
	for _, r := range refs {
		out = append(out, s.Repo.RootRef(r))
	}
	return out
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
	return usecase.TemplateRun(ctx, s, t, graph.RunOptions{Seeds: rootRefs(s, in.Seeds), Workset: in.Workset, Budget: given(in.Budget)}, nil)
}

// addWorksetTools registers the tools of the worksets: list, show, resume,
// context, new, note and promote.
func (m *Server) addWorksetTools() {
	add(m, &mcp.Tool{Name: "workset_list", OutputSchema: outSchema("worksets:array"), Description: "The worksets: seeds, size, staleness, findings.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, _ noIn, out *worksetsOut) (string, error) {
			return worksetCall(ctx, s, func(we *workset.Env) (output, error) {
				var err error
				out.Worksets, err = workset.List(ctx, we)
				return workset.Listing(out.Worksets), err
			})
		})
	add(m, &mcp.Tool{Name: "workset_show", OutputSchema: outSchema("members:array"), Description: "One workset: members and why, stale reasons, findings.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in worksetIn, out *worksetOut) (string, error) {
			return worksetCall(ctx, s, func(we *workset.Env) (output, error) {
				var err error
				out.Detail, err = workset.Show(ctx, we, in.Name)
				return out.Detail, err
			})
		})
	add(m, &mcp.Tool{Name: "workset_resume", OutputSchema: outSchema("text:string"), Description: "Where a workset's task stands: goal, plan, decisions, changes.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in resumeIn, out *resumeOut) (string, error) {
			if err := negative("budget", in.Budget); err != nil {
				return "", err
			}
			return worksetCall(ctx, s, func(we *workset.Env) (output, error) {
				var err error
				out.Resume, err = workset.BuildResume(ctx, we, in.Name, workset.ResumeOptions{Budget: limitOr(in.Budget, 2000)})
				return out.Resume, err
			})
		})
	add(m, &mcp.Tool{Name: "workset_context", OutputSchema: outSchema("entries:array"), Description: "A context pack from a workset's own documents.", Annotations: readOnly},
		func(ctx context.Context, s *gitsync.Session, in worksetContextIn, out *packOut) (string, error) {
			if err := negative("budget", in.Budget); err != nil {
				return "", err
			}
			return worksetCall(ctx, s, func(we *workset.Env) (output, error) {
				var err error
				out.Pack, _, err = workset.Context(ctx, we, in.Name, workset.ContextOptions{Query: in.Query, Budget: given(in.Budget)})
				return out.Pack, err
			})
		})
	add(m, &mcp.Tool{Name: "workset_new", Description: "A workset for a task: seeds, a search or a template.", OutputSchema: outSchema("name:string"), Annotations: writing},
		func(ctx context.Context, s *gitsync.Session, in worksetNewIn, out *worksetNewOut) (string, error) {
			return worksetCall(ctx, s, func(we *workset.Env) (output, error) {
				info, err := workset.Create(ctx, we, in.Name, workset.CreateOptions{
					Spec: workset.Spec{Seeds: rootRefs(s, in.Seeds), Query: in.Query, Template: in.Template}, Agent: in.Agent})
				out.Created = (*workset.Created)(info)
				return out.Created, err
			})
		})
	// note has no command: a person writes notes.md in an editor.
	add(m, &mcp.Tool{Name: "note", Description: "Append a finding to a workset's notes.", OutputSchema: outSchema("note:object"), Annotations: writing},
		func(ctx context.Context, s *gitsync.Session, in noteIn, out *noteOut) (string, error) {
			return worksetCall(ctx, s, func(we *workset.Env) (output, error) {
				var err error
				out.Note, err = workset.AppendNote(ctx, we, in.Workset, workset.NoteArgs{Target: in.Target, Kind: in.Kind, Text: in.Text, Expect: in.Expect})
				return out.Note, err
			})
		})
	add(m, &mcp.Tool{Name: "promote", Description: "Promote a workset's findings: a diff, or apply.", OutputSchema: outSchema("counts:object"), Annotations: destructive},
		promote)
}

// output is what a use case answers: a result type that renders itself
// (as the CLI's).
type output interface{ WriteText(w io.Writer) error }

// worksetCall makes a workset call on the session's workset environment
// and renders its answer.
func worksetCall(ctx context.Context, s *gitsync.Session, call func(we *workset.Env) (output, error)) (string, error) {
	we, err := worksetEnv(ctx, s)
	if err != nil {
		return "", err
	}
	v, err := call(we)
	if err != nil {
		return "", err
	}
	return rendered(v), nil
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
	out.Promoted = p
	switch {
	case p.DryRun:
		// The agent's form: what becomes of each finding, then the diff
		// (canon promote --dry-run prints the first on stderr).
		var b strings.Builder
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

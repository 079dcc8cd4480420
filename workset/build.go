package workset

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/safepath"
)

// Env is what workset operations need from the session that runs them.
type Env struct {
	Root   string       // the repository's root folder
	Index  *index.Store // the repository's index, synced to Head
	Config *config.Config
	Head   string // the commit the index reflects
	Now    time.Time
	// Template resolves a query template by name; nil when there are none.
	Template func(name string) (*graph.Template, error)
	// TemplateNow is the time "recent" anchors count back from.
	TemplateNow func() time.Time
	// Who names this process in lock messages.
	Who string
	// Git runs git in the repository and returns its output (resume reads
	// the log and old versions of members with it); nil: not available.
	Git func(ctx context.Context, args ...string) (string, error)
	// Tracked asks git which files it tracks under a folder: a workset git
	// tracks is refused (foreign.go). nil: not asked (tests).
	Tracked Tracked

	foreign *foreignGuard
}

// refuseForeign returns a *ForeignError when git tracks the workset.
func (e *Env) refuseForeign(ctx context.Context, name string) error {
	if e.foreign == nil || e.foreign.tracked == nil && e.Tracked != nil {
		e.foreign = &foreignGuard{tracked: e.Tracked}
	}
	return e.foreign.check(ctx, name)
}

// openHandle opens an existing workset that git does not track.
func (e *Env) openHandle(ctx context.Context, name string) (*handle, error) {
	if err := e.refuseForeign(ctx, name); err != nil {
		return nil, err
	}
	return openHandle(ctx, e.Root, name)
}

// openMembers is openHandle and the members; the caller closes the
// handle.
func (e *Env) openMembers(ctx context.Context, name string) (*handle, []Member, error) {
	if err := e.refuseForeign(ctx, name); err != nil {
		return nil, nil, err
	}
	return openMembers(ctx, e.Root, name)
}

// Spec says how a workset chooses its members. It is kept in the
// manifest, so that refresh chooses again the same way.
type Spec struct {
	Seeds    []string `json:"seeds"`              // references as given
	Query    string   `json:"query,omitempty"`    // full-text search for more seeds
	Template string   `json:"template,omitempty"` // a query template (canon query list)
	Depth    *int     `json:"depth,omitempty"`    // hops; nil: the template's, or workset.depth
}

// Settings are the bounds a workset was built with.
type Settings struct {
	Depth      int      `json:"depth"`
	Edges      []string `json:"edges"`
	Direction  string   `json:"direction"`
	MaxPerNode int      `json:"max_per_node"`
	MaxDocs    int      `json:"max_docs"`
}

// CreateOptions shape a new workset.
type CreateOptions struct {
	Spec
	TTL   time.Duration // 0: the configuration's workset.ttl
	Agent string        // who works in it
}

// ErrExists says a workset of that name is already there.
var ErrExists = errors.New("workset exists")

// ErrEmpty says the seeds, query or template selected nothing.
var ErrEmpty = errors.New("nothing selected")

// Create materialises a new workset: it selects the members the way canon
// context does (seeds, search, template; expansion from the context
// section, capped by workset.max_docs), copies their rows into workset.db
// and writes plan.md, notes.md and deliverable.md. The folder is built
// under a temporary name and renamed into place, so a workset is complete
// or absent.
func Create(ctx context.Context, e *Env, name string, opt CreateOptions) (*Info, error) {
	dir, err := Folder(e.Root, name)
	if err != nil {
		return nil, err
	}
	if opt.Agent != "" {
		if err := CheckAgent(opt.Agent); err != nil {
			return nil, err
		}
	}
	if _, err := os.Lstat(dir); err == nil {
		return nil, fmt.Errorf("%w: %s is already a workset; canon workset refresh %s rebuilds it, canon workset rm %s removes it", ErrExists, name, name, name)
	}
	if opt.TTL == 0 {
		opt.TTL = e.Config.Workset.TTL
	}
	if opt.Template == "" && opt.Depth == nil {
		d := e.Config.Workset.Depth
		opt.Depth = &d
	}
	sel, err := e.selectMembers(ctx, opt.Spec)
	if err != nil {
		return nil, err
	}
	if err := ensureIgnored(e.Root); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".new-"+name+"-")
	if err == nil {
		err = os.Chmod(tmp, 0o755)
	}
	if err != nil {
		return nil, fmt.Errorf("create workset folder: %w", err)
	}
	done := false
	defer func() {
		if !done {
			_ = safepath.RemoveAll(tmp, e.Root) // best effort: the next build clears debris
		}
	}()
	st, _, err := index.OpenSlice(ctx, filepath.Join(tmp, DBFile))
	if err != nil {
		return nil, err
	}
	h := &handle{name: name, dir: tmp, st: st}
	defer func() { st.Close() }()
	now := e.Now.UTC()
	manifest := map[string]string{
		mName: name, mCreated: formatTime(now), mBuilt: formatTime(now), mExpires: formatTime(now.Add(opt.TTL)),
		mTTL: ttlString(opt.TTL), mAgent: opt.Agent, mHead: e.Head, mSpec: jsonString(opt.Spec),
		mSettings: jsonString(sel.settings), mSchema: itoa(index.SchemaVersion),
	}
	err = st.Copy(ctx, e.Index.Path(), sel.keys(), index.SliceCopy{Fresh: true,
		Members: built(sel.members, now), Manifest: manifest})
	if err != nil {
		return nil, fmt.Errorf("build workset %s: %w", name, err)
	}
	if err := writeKeys(tmp, sel.keys()); err != nil {
		return nil, err
	}
	seeds, err := h.seedRefs(ctx)
	if err != nil {
		return nil, err
	}
	plan, err := h.renderPlan(ctx, seeds)
	if err != nil {
		return nil, err
	}
	if err := st.SetManifest(ctx, map[string]string{mPlanHash: hashText(plan)}); err != nil {
		return nil, err
	}
	files := map[string]string{
		PlanFile:        plan,
		NotesFile:       NotesHeader(name, seeds),
		DeliverableFile: deliverable(name, seeds),
	}
	for f, content := range files {
		if err := safepath.WriteFile(filepath.Join(tmp, f), []byte(content), 0o644, e.Root); err != nil {
			return nil, fmt.Errorf("write %s: %w", f, err)
		}
	}
	if err := st.Close(); err != nil {
		return nil, err
	}
	if err := safepath.Inside(dir, e.Root); err != nil {
		return nil, err // a link put in the way while the workset was built
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Lstat(dir); serr == nil {
			return nil, fmt.Errorf("%w: another process created %s meanwhile", ErrExists, name)
		}
		return nil, fmt.Errorf("put workset %s in place: %w", name, err)
	}
	done = true
	return Get(ctx, e, name)
}

// RefreshResult says what a refresh changed.
type RefreshResult struct {
	Info
	Added   []string `json:"added"`   // node keys that joined
	Removed []string `json:"removed"` // node keys that left
	// PlanRewritten is false when plan.md was edited since canon wrote it:
	// then it is kept as it is.
	PlanRewritten bool `json:"plan_rewritten"`
	// WasStale lists the reasons the refresh cleared.
	WasStale []StaleReason `json:"was_stale"`
}

// Refresh rebuilds a workset's slice from the current index, the way it
// was chosen (its Spec), and clears its staleness. Documents a search
// added (--enrich) stay while they exist and the size cap allows. notes.md
// and deliverable.md are never touched; plan.md is rewritten only while
// it is as canon wrote it. The TTL counts again from now.
func Refresh(ctx context.Context, e *Env, name string) (*RefreshResult, error) {
	h, err := e.openHandle(ctx, name)
	if err != nil {
		return nil, err
	}
	defer h.close()
	unlock, err := h.st.Lock(ctx, e.Who, 30*time.Second)
	if err != nil {
		return nil, err
	}
	defer unlock()
	m, err := h.manifest(ctx)
	if err != nil {
		return nil, err
	}
	var spec Spec
	if err := json.Unmarshal([]byte(m[mSpec]), &spec); err != nil {
		return nil, fmt.Errorf("workset %s: its manifest has no readable spec (%w); remove it and create it again", name, err)
	}
	old, err := h.members(ctx)
	if err != nil {
		return nil, err
	}
	wasStale, err := h.staleReasons(ctx)
	if err != nil {
		return nil, err
	}
	sel, err := e.selectMembers(ctx, spec)
	if err != nil {
		return nil, err
	}
	keepRows, err := e.keptEnriched(ctx, sel, old)
	if err != nil {
		return nil, err
	}
	ttl, err := config.ParseTTL(m[mTTL])
	if err != nil {
		ttl = e.Config.Workset.TTL
	}
	now := e.Now.UTC()
	keys := sel.keys()
	for _, mb := range keepRows {
		keys = append(keys, mb.Key)
	}
	if err := writeKeys(h.dir, keys, keysOf(old)); err != nil {
		return nil, err
	}
	// The copy replaces the slice, its members and its staleness: what
	// the spec selects now, then what --enrich added and still fits.
	err = h.st.Copy(ctx, e.Index.Path(), keys, index.SliceCopy{Fresh: true,
		Members: append(built(sel.members, now), sliceMembers(keepRows)...),
		Manifest: map[string]string{
			mBuilt: formatTime(now), mExpires: formatTime(now.Add(ttl)), mHead: e.Head,
			mSettings: jsonString(sel.settings), mSchema: itoa(index.SchemaVersion),
		}})
	if err != nil {
		return nil, fmt.Errorf("refresh workset %s: %w", name, err)
	}
	res := &RefreshResult{Added: []string{}, Removed: []string{}, WasStale: wasStale}
	now2, err := h.members(ctx)
	if err != nil {
		return nil, err
	}
	if err := writeKeys(h.dir, keysOf(now2)); err != nil {
		return nil, err
	}
	res.Added, res.Removed = memberChanges(old, now2)
	if res.PlanRewritten, err = e.refreshFiles(ctx, h, name, m[mPlanHash]); err != nil {
		return nil, err
	}
	info, err := h.info(ctx, e.Now)
	if err != nil {
		return nil, err
	}
	res.Info = *info
	return res, nil
}

// keptEnriched are the members of old that a search added (--enrich) and
// the refresh keeps: those the spec does not select again that still
// exist, while the workset's size cap allows.
func (e *Env) keptEnriched(ctx context.Context, sel *selection, old []Member) ([]Member, error) {
	chosen := map[string]bool{}
	for _, mb := range sel.members {
		chosen[mb.Key] = true
	}
	var enriched []string
	for _, mb := range old {
		if mb.Source == SourceEnrich && !chosen[mb.Key] {
			enriched = append(enriched, mb.Key)
		}
	}
	kept, err := e.existingKeys(ctx, enriched)
	if err != nil {
		return nil, err
	}
	var keepRows []Member
	for _, mb := range old {
		if kept[mb.Key] && len(sel.members)+len(keepRows) < e.Config.Workset.MaxDocs {
			keepRows = append(keepRows, mb)
		}
	}
	return keepRows, nil
}

// memberChanges lists the keys of now that old lacks (added) and those of
// old that now lacks (removed), each empty rather than nil.
func memberChanges(old, now []Member) (added, removed []string) {
	added, removed = []string{}, []string{}
	before := map[string]bool{}
	for _, mb := range old {
		before[mb.Key] = true
	}
	after := map[string]bool{}
	for _, mb := range now {
		after[mb.Key] = true
		if !before[mb.Key] {
			added = append(added, mb.Key)
		}
	}
	for _, mb := range old {
		if !after[mb.Key] {
			removed = append(removed, mb.Key)
		}
	}
	return added, removed
}

// refreshFiles brings a refreshed workset's files along: plan.md is
// rewritten only while unedited (its hash is still planHash) or missing,
// and reports so; notes.md is never rewritten, but a missing one gets its
// header back.
func (e *Env) refreshFiles(ctx context.Context, h *handle, name, planHash string) (bool, error) {
	seeds, err := h.seedRefs(ctx)
	if err != nil {
		return false, err
	}
	rewritten := false
	planPath := filepath.Join(h.dir, PlanFile)
	cur, rerr := readOwn(e.Root, h.dir, PlanFile)
	if errors.Is(rerr, fs.ErrNotExist) || rerr == nil && hashText(string(cur)) == planHash {
		plan, err := h.renderPlan(ctx, seeds)
		if err != nil {
			return false, err
		}
		if err := safepath.WriteFile(planPath, []byte(plan), 0o644, e.Root); err != nil {
			return false, fmt.Errorf("write %s: %w", PlanFile, err)
		}
		if err := h.st.SetManifest(ctx, map[string]string{mPlanHash: hashText(plan)}); err != nil {
			return false, err
		}
		rewritten = true
	}
	notesPath := filepath.Join(h.dir, NotesFile)
	if _, err := os.Stat(notesPath); errors.Is(err, fs.ErrNotExist) {
		if err := safepath.WriteFile(notesPath, []byte(NotesHeader(name, seeds)), 0o644, e.Root); err != nil {
			return rewritten, fmt.Errorf("write %s: %w", NotesFile, err)
		}
	}
	return rewritten, nil
}

// selection is the members chosen for a workset.
type selection struct {
	members  []Member
	settings Settings
}

func (s *selection) keys() []string {
	out := make([]string, len(s.members))
	for i, m := range s.members {
		out[i] = m.Key
	}
	return out
}

// selectMembers builds the context pack the spec describes, with no token
// budget and workset.max_docs as the node cap: its entries are the members.
func (e *Env) selectMembers(ctx context.Context, spec Spec) (*selection, error) {
	g := graph.New(e.Index)
	base := graph.PackOptionsOf(e.Config)
	base.MaxNodes = e.Config.Workset.MaxDocs
	base.Budget = 0
	var p *graph.Pack
	var err error
	if spec.Template != "" {
		if e.Template == nil {
			return nil, fmt.Errorf("query templates are not available here")
		}
		t, err := e.Template(spec.Template)
		if err != nil {
			return nil, err
		}
		zero, maxDocs := 0, e.Config.Workset.MaxDocs
		p, err = g.RunTemplate(ctx, t, graph.RunOptions{Base: base, Seeds: spec.Seeds, Depth: spec.Depth,
			Budget: &zero, MaxNodes: &maxDocs, Now: e.TemplateNow})
		if err != nil {
			return nil, err
		}
	} else {
		if len(spec.Seeds) == 0 && strings.TrimSpace(spec.Query) == "" {
			return nil, fmt.Errorf("%w: a workset needs seeds, a query or a template", ErrEmpty)
		}
		base.Seeds, base.Query = spec.Seeds, spec.Query
		if spec.Depth != nil {
			base.Depth = *spec.Depth
		}
		if p, err = g.Pack(ctx, base); err != nil {
			return nil, err
		}
	}
	if len(p.Entries) == 0 {
		switch {
		case spec.Template != "" && len(spec.Seeds) == 0:
			return nil, fmt.Errorf("%w: the template %s matched no document here; give it --seed ID, or see what it asks for with canon query show %s", ErrEmpty, spec.Template, spec.Template)
		case strings.TrimSpace(spec.Query) != "" && len(spec.Seeds) == 0:
			return nil, fmt.Errorf("%w: no document matches the query %q; try other words, or --seed ID", ErrEmpty, spec.Query)
		}
		return nil, fmt.Errorf("%w: the seeds, query or template selected no document", ErrEmpty)
	}
	sel := &selection{settings: Settings{Depth: p.Settings.Depth, Edges: p.Settings.Edges, Direction: string(p.Settings.Direction),
		MaxPerNode: p.Settings.MaxPerNode, MaxDocs: e.Config.Workset.MaxDocs}}
	for _, en := range p.Entries {
		mb := Member{DocRef: en.DocRef, Distance: en.Why.Depth, Matched: en.Why.Matched}
		if en.Why.Reason == graph.ReasonSeed {
			mb.Seed, mb.Source = true, en.Why.Source
		} else {
			mb.Source = SourceNeighbour
			mb.Via = &Via{From: en.Why.From, FromID: en.Why.FromID, Edge: en.Why.Edge, Direction: string(en.Why.Direction)}
		}
		sel.members = append(sel.members, mb)
	}
	return sel, nil
}

// existingKeys says which of the keys the repository's index holds.
func (e *Env) existingKeys(ctx context.Context, keys []string) (map[string]bool, error) {
	return e.Index.HasKeys(ctx, keys)
}

// built is the records of members a build chose at a time.
func built(members []Member, at time.Time) []index.SliceMember {
	out := make([]index.SliceMember, len(members))
	for i, mb := range members {
		mb.AddedAt, mb.AddedBy = at, "build"
		out[i] = sliceMember(mb)
	}
	return out
}

// seedRefs lists the seed members in the order they were chosen.
func (h *handle) seedRefs(ctx context.Context) ([]index.DocRef, error) {
	ms, err := h.members(ctx)
	if err != nil {
		return nil, err
	}
	var out []index.DocRef
	for _, m := range ms {
		if m.Seed {
			out = append(out, m.DocRef)
		}
	}
	return out, nil
}

// renderPlan reads the Acceptance Criteria sections of the seeds from the
// workset's own rows.
func (h *handle) renderPlan(ctx context.Context, seeds []index.DocRef) (string, error) {
	var sources []PlanSource
	for _, s := range seeds {
		ps := PlanSource{Doc: s}
		sections, err := h.st.SectionBodies(ctx, s.Key)
		if err != nil {
			return "", err
		}
		var texts []string
		for _, sec := range sections {
			if IsCriteriaHeading(sec.Heading) {
				ps.Found = true
				texts = append(texts, sec.Body)
			}
		}
		ps.Criteria = strings.Join(texts, "\n\n")
		sources = append(sources, ps)
	}
	return RenderPlan(h.name, sources), nil
}

func deliverable(name string, seeds []index.DocRef) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Deliverable: %s\n\n", name)
	b.WriteString("<!-- What this task produced, for whoever picks it up: the change and\nwhere it is, how it was checked, what is left. canon never reads or\nrewrites this file; findings for the canonical documents go in notes.md. -->\n")
	if len(seeds) > 0 {
		b.WriteString("\nFor:")
		for _, s := range seeds {
			fmt.Fprintf(&b, " %s", s.ID)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// ttlString writes a lifetime the way people write it: 72h, 90m.
func ttlString(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}

func hashText(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

package usecase

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/edit"
	"github.com/canon-md/canon/index/edit/layout"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/ids"
	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/workset"
)

// canon new and MCP item_new (ADR-0072): one item created the way the
// repository writes the items of its kind, learned from them
// (index/edit/layout) or from a template in .canon/templates/, checked
// as canon check would check it, written atomically with the index
// synced, and committed alone on request.

// NewArgs say what canon new creates.
type NewArgs struct {
	Kind, Title string
	// Parent names the item's parent (canon show's names); written as
	// its id.
	Parent string
	// Set are other fields: FIELD=VALUE, a list field taking each value
	// given for it.
	Set []FieldValue
	// Body is the text of the item's description section.
	Body string
	// Path, when set, is where the file goes instead of where the
	// repository's items of the kind go.
	Path string
	// Namespace is the id space (a Kano product) the id is minted in.
	Namespace      string
	DryRun, Commit bool
}

// ItemCreated is what canon new wrote, or would write.
type ItemCreated struct {
	Item   index.DocRef `json:"item"`
	DryRun bool         `json:"dry_run"`
	// Learned says where the layout came from: the items it was
	// learned from (their count and the newest), or the template.
	Learned string   `json:"learned"`
	Diff    string   `json:"diff,omitempty"`
	Written []string `json:"written"`
	Commit  string   `json:"commit,omitempty"`
}

// WriteText says what was created, where, and from what.
func (r *ItemCreated) WriteText(w io.Writer) error {
	if r.DryRun {
		fmt.Fprint(w, r.Diff)
		_, err := fmt.Fprintf(w, "would create %s %s at %s (%s); dry run: nothing written\n", r.Item.Kind, r.Item.ID, human.QuotePath(r.Item.Path), r.Learned)
		return err
	}
	if r.Commit != "" {
		_, err := fmt.Fprintf(w, "created %s %s at %s (%s); committed as %s\n", r.Item.Kind, r.Item.ID, human.QuotePath(r.Item.Path), r.Learned, r.Commit)
		return err
	}
	_, err := fmt.Fprintf(w, "created %s %s at %s (%s); nothing is committed (--commit commits it alone)\n", r.Item.Kind, r.Item.ID, human.QuotePath(r.Item.Path), r.Learned)
	return err
}

// MaxTitle bounds a new item's title in bytes.
const MaxTitle = 300

// maxSamples is how many of the kind's newest items a layout is learned
// from; maxSampleBytes, the largest file read as one.
const (
	maxSamples     = 40
	maxSampleBytes = 256 << 10
)

// NewItem is canon new: the next id of the kind, the file where the
// repository's items of the kind go, written as they are written.
func NewItem(ctx context.Context, s *gitsync.Session, a NewArgs) (*ItemCreated, error) {
	a.Kind = strings.ToLower(strings.TrimSpace(a.Kind))
	if err := checkNew(a); err != nil {
		return nil, err
	}
	now, err := workset.ParseNow()
	if err != nil {
		return nil, &workset.NowError{Err: err}
	}
	n := &newItem{s: s, a: a, now: now, kind: a.Kind}
	if n.parentID, err = n.parent(ctx); err != nil {
		return nil, err
	}
	if err := n.mint(ctx); err != nil {
		return nil, err
	}
	content, err := n.compose(ctx)
	if err != nil {
		return nil, err
	}
	return n.write(ctx, content)
}

// mint is the new item's id: the kind's next, or, where the repository
// numbers children under their parent (Backlog.md's BACK-12.1 under
// BACK-12), the parent's next child's.
func (n *newItem) mint(ctx context.Context) error {
	if n.parentID != "" {
		id, ok, err := n.childID(ctx)
		if err != nil || ok {
			n.id = id
			return err
		}
	}
	next, err := Next(ctx, n.s, n.a.Kind, n.a.Namespace)
	switch {
	case errors.Is(err, ids.ErrNoSeries):
		return fmt.Errorf("%w: no %s document has an id or a record number to continue from; write the first one by hand (canon new learns from it)", ErrItem, n.a.Kind)
	case errors.Is(err, ErrNamespace):
		return fmt.Errorf("%w: %w", ErrItem, err)
	case err != nil:
		return err
	}
	n.id, n.record = next.ID, next.Record
	return nil
}

// recordNumberRE is a numbered record's number: 0001 of
// 0001-use-go.md.
var recordNumberRE = lazyre.MustCompile(`^[0-9]{1,9}`)

// toolParentField is the field a tool reads an item's parent from, where
// it reads no other: Backlog.md's parent_task_id (its parser ignores
// parent:).
var toolParentField = map[string]string{"backlog.md": "parent_task_id"}

// childIDsOf are the tools that number every child under its parent of
// the same series (Backlog.md's task create -p BACK-12 is BACK-12.1, the
// first one too).
var childIDsOf = map[string]bool{"backlog.md": true}

// childID is the parent's next child id when the repository numbers
// children under their parents (at least two items of the kind do, or
// its tool always does), free in the working tree and on every other
// ref.
func (n *newItem) childID(ctx context.Context) (string, bool, error) {
	docs, err := n.s.Store.IdentsOfKind(ctx, n.a.Kind)
	if err != nil {
		return "", false, err
	}
	children, top, series := 0, 0, false
	for _, d := range docs {
		series = series || strings.EqualFold(idPrefix(d.Ident), idPrefix(n.parentID))
		parent, k, ok := ids.Child(d.Ident)
		if !ok || !strings.EqualFold(idPrefix(parent), idPrefix(n.parentID)) {
			continue // numbered under a parent of another series
		}
		children++
		if strings.EqualFold(parent, n.parentID) {
			top = max(top, k)
		}
	}
	if children < 2 && (!childIDsOf[n.s.Cfg.Tool] || !series) {
		return "", false, nil
	}
	refs, err := n.s.RefIDs(ctx)
	if err != nil {
		return "", false, err
	}
	for _, r := range refs {
		if parent, k, ok := ids.Child(r.Ident); ok && strings.EqualFold(parent, n.parentID) {
			top = max(top, k)
		}
	}
	return n.parentID + "." + strconv.Itoa(top+1), true, nil
}

// checkNew refuses what no item can be created from.
func checkNew(a NewArgs) error {
	if a.Kind == "" || strings.ContainsFunc(a.Kind, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' }) {
		return fmt.Errorf("%w: %s is not a kind; name one as canon id next does (task, bug, adr)", ErrItem, human.Quote(a.Kind))
	}
	t := strings.TrimSpace(a.Title)
	switch {
	case t == "":
		return fmt.Errorf("%w: the title is empty; say what the item is", ErrItem)
	case len(t) > MaxTitle:
		return fmt.Errorf("%w: the title is %d bytes, more than %d; put the rest in --body", ErrItem, len(t), MaxTitle)
	case strings.ContainsFunc(t, unicode.IsControl):
		return fmt.Errorf("%w: the title holds a control character (a line break or a tab); write it on one line", ErrItem)
	}
	for _, fv := range a.Set {
		if err := checkItemField(fv.Field); err != nil {
			return err
		}
		switch strings.ToLower(fv.Field) {
		case "title", "parent":
			return fmt.Errorf("%w: the %s is given as an argument of its own, not as --set", ErrItem, strings.ToLower(fv.Field))
		}
	}
	return nil
}

// newItem is one canon new under way.
type newItem struct {
	s      *gitsync.Session
	a      NewArgs
	id     string
	record bool
	// parentID is the parent as written: its id.
	parentID string
	// stateField is the field the kind's items write their state in.
	stateField string
	// kind is the new item's kind: the one named, or the kind of the
	// items whose id prefix was named.
	kind    string
	now     time.Time
	path    string
	learned string
}

// compose writes the item: from the template when the repository has
// one for the kind, else as its items of the kind are written.
func (n *newItem) compose(ctx context.Context) ([]byte, error) {
	it := layout.Item{ID: n.id, Title: strings.TrimSpace(n.a.Title), Body: n.a.Body, Now: n.now, Parent: n.parentID,
		Refs: refFields(n.s.Cfg, ""), ParentFields: refFields(n.s.Cfg, "parent"), ParentField: toolParentField[n.s.Cfg.Tool],
		NoUpdated: toolAddsUpdated[n.s.Cfg.Tool], StateField: strings.ToLower(n.s.Cfg.States.Field)}
	l, samples, err := n.learn(ctx)
	if err != nil && !errors.Is(err, layout.ErrNoSample) {
		return nil, err
	}
	if l != nil {
		n.stateField = l.StateField(n.s.Cfg.States.Field)
	}
	if it.State, err = n.initialState(ctx); err != nil {
		return nil, err
	}
	it.UID = uuidV7(n.now, n.id, it.Title)
	for _, fv := range n.a.Set {
		v := fv.Value
		if sf := strings.ToLower(fv.Field); sf == "state" || sf == "status" || sf == it.StateField && sf != "" {
			if v, err = n.state(ctx, v); err != nil {
				return nil, err
			}
			it.State = v
			continue
		}
		it.Set = append(it.Set, layout.Field{Name: fv.Field, Value: v})
	}
	tmpl, err := n.template()
	if err != nil {
		return nil, err
	}
	if err := n.place(l, it.Title); err != nil {
		return nil, err
	}
	switch {
	case tmpl != nil:
		n.learned = "from " + path.Join(config.Dir, "templates", n.kind+".md")
		return layout.FromTemplate(tmpl, it)
	case l == nil:
		return nil, fmt.Errorf("%w: no %s item with the id %s's prefix exists to learn the layout from; write a template in %s/templates/%s.md", ErrItem, n.kind, n.id, config.Dir, n.kind)
	}
	n.learned = fmt.Sprintf("as %d %s items are written, the newest %s", samples, n.kind, human.QuotePath(l.Newest()))
	return l.Compose(it)
}

// place settles where the item goes: --path, else where the items of
// its kind go.
func (n *newItem) place(l *layout.Layout, title string) error {
	switch {
	case n.a.Path != "":
		n.path = filepath.ToSlash(filepath.Clean(n.a.Path))
		if !strings.EqualFold(path.Ext(n.path), ".md") {
			return fmt.Errorf("%w: --path %s is not a Markdown file; end it in .md", ErrItem, human.QuotePath(n.a.Path))
		}
	case l != nil:
		n.path = l.Path(n.id, title)
	default:
		return fmt.Errorf("%w: no %s item exists to learn where they go; give --path", ErrItem, n.kind)
	}
	if _, err := edit.Writable(n.s.Repo.Root, n.path, n.s.Scope, false, true); err != nil {
		return fmt.Errorf("%w: %s cannot be written: %w", ErrItem, human.QuotePath(n.path), err)
	}
	if _, err := os.Lstat(filepath.Join(n.s.Repo.Root, filepath.FromSlash(n.path))); err == nil {
		return fmt.Errorf("%w: %s exists already; canon new writes no file over another", ErrItem, human.QuotePath(n.path))
	}
	return nil
}

// learn reads the newest items of the kind that share the new id's
// prefix (a Kano product's, not another's) and learns how they are
// written; also how many it read.
func (n *newItem) learn(ctx context.Context) (*layout.Layout, int, error) {
	want := idPrefix(n.id)
	if !n.record {
		newest, complete, ok, err := n.newestOfSeries(ctx, want)
		if err != nil {
			return nil, 0, err
		}
		if samples := n.samplesOf(newest); ok && (complete || len(samples) == maxSamples) {
			l, err := layout.Learn(samples, n.s.Cfg.States.IsDone)
			return l, len(samples), err
		}
	}
	docs, err := n.s.Store.IdentsOfKind(ctx, n.a.Kind)
	if err != nil {
		return nil, 0, err
	}
	var keep []index.IdentPath
	for _, d := range docs {
		if n.record || strings.EqualFold(idPrefix(d.Ident), want) {
			keep = append(keep, d)
		}
	}
	if len(keep) == 0 && !n.record {
		// The kind named by its prefix (canon new KB-BUG): the items
		// with that prefix, whatever their kind.
		if keep, err = n.ofPrefix(ctx, want); err != nil {
			return nil, 0, err
		}
	}
	// Each id's number once (a regexp each: sorting 60,000 ids called it
	// a million times at 100k documents).
	nums := make(map[string]int64, len(keep))
	for _, d := range keep {
		_, nums[d.Ident] = ids.Series(d.Ident)
	}
	sort.SliceStable(keep, func(i, j int) bool { return nums[keep[i].Ident] > nums[keep[j].Ident] })
	samples := n.samplesOf(keep)
	l, err := layout.Learn(samples, n.s.Cfg.States.IsDone)
	return l, len(samples), err
}

// samplesOf reads the first maxSamples of docs that can be read.
func (n *newItem) samplesOf(docs []index.IdentPath) []layout.Sample {
	var samples []layout.Sample
	for _, d := range docs {
		if len(samples) == maxSamples {
			break
		}
		b, err := readSample(n.s.Repo.Root, d.Path)
		if err != nil {
			continue // gone since the sync, or too large: learn from the rest
		}
		id := d.Ident
		if id == "" { // a numbered record: 0001-title.md
			id = recordNumberRE.FindString(path.Base(d.Path))
		}
		samples = append(samples, layout.Sample{Path: d.Path, Content: b, ID: id})
	}
	return samples
}

// ofPrefix are the items whose ids have prefix; the kind becomes
// theirs.
func (n *newItem) ofPrefix(ctx context.Context, prefix string) ([]index.IdentPath, error) {
	docs, err := n.s.Store.IdentDocs(ctx)
	if err != nil {
		return nil, err
	}
	var out []index.IdentPath
	kinds := map[string]int{}
	for _, d := range docs {
		if strings.EqualFold(idPrefix(d.Ident), prefix) {
			out = append(out, index.IdentPath{Ident: d.Ident, Path: d.Path})
			kinds[d.Kind]++
		}
	}
	for k, c := range kinds {
		if c > kinds[n.kind] || c == kinds[n.kind] && k < n.kind {
			n.kind = k
		}
	}
	return out, nil
}

// readSample reads one item learned from, bounded.
func readSample(root, rel string) ([]byte, error) {
	f, err := os.Open(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSampleBytes+1))
	if err == nil && len(b) > maxSampleBytes {
		err = errors.New("too large to learn from")
	}
	return b, err
}

// template is the repository's template for the kind, nil when it has
// none.
func (n *newItem) template() ([]byte, error) {
	p := filepath.Join(n.s.Repo.Root, config.Dir, "templates", n.kind+".md")
	fi, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxSampleBytes {
		return nil, fmt.Errorf("%w: %s is not a regular file of at most %d KB; make it one", ErrItem, human.QuotePath(path.Join(config.Dir, "templates", n.kind+".md")), maxSampleBytes>>10)
	}
	return os.ReadFile(p)
}

// parent is the id the item's parent is written as: --parent resolved.
func (n *newItem) parent(ctx context.Context) (string, error) {
	if strings.TrimSpace(n.a.Parent) == "" {
		return "", nil
	}
	doc, err := n.s.Store.FindOne(ctx, n.a.Parent)
	if err != nil {
		return "", fmt.Errorf("%w: --parent: %w", ErrItem, err)
	}
	if doc.ID == "" || doc.ID == markdown.DisplayStem(doc.Path) && !strings.EqualFold(doc.ID, n.a.Parent) {
		return doc.Key, nil
	}
	return doc.ID, nil
}

// initialState is the state a new item of the kind starts in: the first
// of the repository's states that says "not started" (To Do, Proposed,
// Backlog ...), else the most used open one; "" when the kind has none.
func (n *newItem) initialState(ctx context.Context) (string, error) {
	e := n.editor()
	uses, err := e.usedStates(ctx)
	if err != nil {
		return "", err
	}
	if open := n.s.Cfg.States.Open; e.stateF != "" && e.stateF == n.s.Cfg.States.Field && len(open) > 0 {
		// A learned field: its first open value, in the order work moves
		// through them (emberjs/rfcs: accepted).
		return open[0], nil
	}
	if listed := schemaStates(n.s.Cfg, n.kind, n.id); len(listed) > 0 {
		// A state the kind's schema does not list is one check reports,
		// unless the items are in none it lists (its schema is another
		// folder's): then their practice holds.
		inSchema := slices.DeleteFunc(slices.Clone(uses), func(u index.StateUse) bool {
			return !slices.ContainsFunc(listed, func(l string) bool { return strings.EqualFold(l, u.State) })
		})
		if len(inSchema) > 0 {
			uses = inSchema
		}
	}
	if st := pickState(uses, func(string) bool { return false }, initialWords, false); st != "" {
		return st, nil
	}
	for _, u := range uses {
		if n.s.Cfg.States.IsOpen(u.State) && !n.s.Cfg.States.IsBlocked(u.State) {
			return u.State, nil
		}
	}
	return "", nil
}

// state is a --set state checked as canon set checks it.
func (n *newItem) state(ctx context.Context, v string) (string, error) {
	return n.editor().state(ctx, v)
}

// editor is an item editor of no document yet, for its reading of the
// kind's states: in the state field its items use.
func (n *newItem) editor() *itemEditor {
	fm := &markdown.Value{Kind: markdown.Map}
	if n.stateField != "" {
		fm.Fields = []markdown.Field{{Key: n.stateField, Value: &markdown.Value{}}}
	}
	return &itemEditor{s: n.s, doc: index.DocRef{Kind: n.kind, ID: n.id}, md: &markdown.Document{Frontmatter: fm}}
}

// initialWords are the states of work not started, by preference, as
// graph.StateWord folds them.
var initialWords = []string{"todo", "proposed", "backlog", "new", "open", "draft", "planned", "notstarted"}

// write checks the item as canon check would, and writes it (or its
// diff) with the index synced; --commit commits it alone.
func (n *newItem) write(ctx context.Context, content []byte) (*ItemCreated, error) {
	d := markdown.Parse(n.path, content, &markdown.Options{})
	if !n.record && d.ID != n.id {
		return nil, fmt.Errorf("%w: the item written would not read as %s (its layout has no id field canon can fill); write a template in %s/templates/%s.md", ErrItem, n.id, config.Dir, n.kind)
	}
	if title := strings.Join(strings.Fields(n.a.Title), " "); !strings.Contains(strings.Join(strings.Fields(d.Title), " "), title) {
		// The kind's items keep their title where canon could not learn
		// it (a heading that writes the number its own way): an item with
		// no title is no item.
		return nil, fmt.Errorf("%w: the item written would not read as titled %s (canon cannot tell where the %s items keep their titles); write a template in %s/templates/%s.md", ErrItem, human.Quote(title), n.kind, config.Dir, n.kind)
	}
	preview, err := n.s.CheckPlanned(ctx, map[string][]byte{n.path: content})
	if err != nil {
		return nil, err
	}
	if bad := introduced(preview.Findings); len(bad) > 0 {
		return nil, fmt.Errorf("%w: canon check would report %s; nothing is written", ErrItem, strings.Join(bad, "; "))
	}
	set := edit.NewSet(n.s.Repo.Root, n.s.Scope)
	f, err := set.Create(n.path, content)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrItem, err)
	}
	out := &ItemCreated{Item: index.DocRef{Key: n.id, ID: n.id, Path: n.path, Kind: n.kind, Title: strings.TrimSpace(n.a.Title), State: d.State}, Learned: n.learned, Written: []string{}}
	if n.a.DryRun {
		out.DryRun, out.Diff = true, edit.Diff([]*edit.File{f})
		return out, nil
	}
	if _, err := set.Apply(ctx, n.s, "canon new", nil); err != nil {
		return nil, err
	}
	out.Written = append(out.Written, n.path)
	if n.a.Commit {
		msg := fmt.Sprintf("%s: new %s %s (canon new)", n.id, n.kind, human.Quote(strings.TrimSpace(n.a.Title)))
		if out.Commit, err = commitItem(ctx, n.s, []string{n.path}, msg); err != nil {
			return nil, err
		}
	}
	if doc, err := n.s.Store.FindOne(ctx, n.path); err == nil {
		out.Item = *doc
	}
	return out, nil
}

// refFields are the frontmatter fields that hold references of type typ
// ("" for any: the configuration's edges), by their last key.
func refFields(cfg *config.Config, typ string) map[string]bool {
	out := map[string]bool{}
	for f, t := range cfg.Edges {
		if typ != "" && t != typ {
			continue
		}
		k := f
		if i := strings.LastIndexByte(f, '.'); i >= 0 {
			k = f[i+1:]
		}
		out[strings.ToLower(k)] = true
	}
	return out
}

// idPrefix is the prefix of the series an id is numbered in.
func idPrefix(id string) string {
	p, _ := ids.Series(id)
	return p
}

// uuidV7 is a new RFC 9562 version 7 UUID at now (as Kano writes uid:).
// Its other 74 bits hash the clock to the nanosecond, the id and the
// title: the same call gives the same answer (canon's output is
// deterministic), and two items differ as their ids do.
func uuidV7(now time.Time, id, title string) string {
	h := sha256.Sum256([]byte(strconv.FormatInt(now.UnixNano(), 10) + "\x00" + id + "\x00" + title))
	var b [16]byte
	copy(b[6:], h[:10])
	binary.BigEndian.PutUint16(b[0:2], uint16(uint64(now.UnixMilli())>>32))
	binary.BigEndian.PutUint32(b[2:6], uint32(uint64(now.UnixMilli())))
	b[6] = 0x70 | b[6]&0x0f
	b[8] = 0x80 | b[8]&0x3f
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

package usecase

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/check"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/edit"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/workset"
)

// The write path of one item (canon set, claim, done, log; MCP item_set,
// item_claim, item_done, item_log): the edits of index/edit on the one
// document the item is, refused before anything is written when they
// would bring a problem canon check reports, written all or none with the
// index synced in the same step, and committed alone on request.

// ErrItem says canon set, claim, done or log cannot do what it was asked
// (an item that names no document, a field it may not set, a state the
// repository does not use, an edit check refuses): a usage error.
var ErrItem = errors.New("bad item edit")

// FieldValue is one FIELD=VALUE of canon set.
type FieldValue struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

// ParseFieldValue reads FIELD=VALUE.
func ParseFieldValue(s string) (FieldValue, error) {
	f, v, ok := strings.Cut(s, "=")
	if !ok {
		return FieldValue{}, fmt.Errorf("%w: %s is not FIELD=VALUE; write it as state=Done", ErrItem, human.Quote(s))
	}
	return FieldValue{Field: strings.TrimSpace(f), Value: strings.TrimSpace(v)}, nil
}

// ItemArgs say what one call changes in one item.
type ItemArgs struct {
	// Ref names the item: its id, key, path or stem (canon show's).
	Ref string
	// Set are fields to set to one value; Add and Remove, items of list
	// fields.
	Set, Add, Remove []FieldValue
	// Log is a line appended, dated, to the item's worklog; Agent, when
	// set, is named in it as promote names a workset's agent
	// (2026-11-28 10:00 [agent=NAME] text).
	Log, Agent string
	// DryRun prints the diff and writes nothing; Commit commits the item
	// alone once written.
	DryRun, Commit bool
	// Force makes a claim take an item that is taken (done, in progress
	// under another name, or taken on another ref).
	Force bool
	// Command is what a person typed (canon claim), for the journal and
	// the commit message.
	Command string
}

// FieldChange is one change an edit made.
type FieldChange struct {
	Field string `json:"field"`
	// Op is set, add or remove.
	Op    string `json:"op"`
	Value string `json:"value"`
}

// ItemEdited is what canon set, claim, done and log did, or would do.
type ItemEdited struct {
	Item    index.DocRef  `json:"item"`
	Changes []FieldChange `json:"changes"`
	Logged  string        `json:"logged,omitempty"`
	// Section is the heading of the section the line went in (Worklog,
	// Implementation Notes).
	Section string `json:"section,omitempty"`
	Updated string `json:"updated,omitempty"`
	DryRun  bool   `json:"dry_run"`
	Diff    string `json:"diff,omitempty"`
	// Written are the files written: the item's, or none when nothing
	// changed.
	Written []string `json:"written"`
	// Commit is the short hash of the commit --commit made.
	Commit string `json:"commit,omitempty"`
}

// itemFieldRE is a field canon set writes: a plain YAML key.
var itemFieldRE = lazyre.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]{0,63}$`)

// itemEditor is one item's edit: the session, the document and its
// parse, the change set over the working tree, the clock.
type itemEditor struct {
	s   *gitsync.Session
	doc index.DocRef
	md  *markdown.Document
	set *edit.Set
	now time.Time
	out *ItemEdited
	// fallback is a state claim or done writes though no document is in
	// it yet (the repository's first In Progress): one the configuration
	// lists.
	fallback string
	stateF   string // stateField's answer
	// side is the sidecar beside the item whose fields it takes
	// (config.Sidecars: a KEP's kep.yaml), "" for none; sideFields are
	// its fields, nil when they do not parse (sideErr says why).
	side       string
	sideFields *markdown.Value
	sideErr    error
}

func newItemEditor(ctx context.Context, s *gitsync.Session, ref string) (*itemEditor, error) {
	if strings.TrimSpace(ref) == "" {
		return nil, fmt.Errorf("%w: name the item by its id, key or path", ErrItem)
	}
	now, err := workset.ParseNow()
	if err != nil {
		return nil, &workset.NowError{Err: err}
	}
	doc, err := s.Store.FindOne(ctx, ref)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrItem, err)
	}
	set := edit.NewSet(s.Repo.Root, s.Scope)
	f, err := set.Open(doc.Path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s cannot be written: %w", ErrItem, doc.Path, err)
	}
	md := markdown.Parse(doc.Path, f.Before, &markdown.Options{})
	e := &itemEditor{s: s, doc: *doc, md: md, set: set, now: now, out: &ItemEdited{Item: *doc, Changes: []FieldChange{}, Written: []string{}}}
	e.findSidecar()
	return e, nil
}

// spelling is the field of names the item uses, else the one the
// documents of its kind use most, else the first: state or status,
// assignee or owner.
func (e *itemEditor) spelling(ctx context.Context, names ...string) (string, error) {
	for _, n := range names {
		if e.has(n) {
			return n, nil
		}
	}
	use, err := e.s.Store.FieldUse(ctx, e.doc.Kind, names...)
	if err != nil {
		return "", err
	}
	best := names[0]
	for _, n := range names[1:] {
		if use[n] > use[best] {
			best = n
		}
	}
	return best, nil
}

// stateField is the field that holds the item's state, read once: the
// one init learned (states.field: emberjs/rfcs' stage) before state and
// status, as the index reads the state.
func (e *itemEditor) stateField(ctx context.Context) (string, error) {
	if e.stateF == "" {
		names := []string{"state", "status"}
		if lf := e.s.Cfg.States.Field; lf != "" {
			names = []string{lf, "state", "status"}
		}
		f, err := e.spelling(ctx, names...)
		if err != nil {
			return "", err
		}
		e.stateF = f
	}
	return e.stateF, nil
}

// usedStates are the states the documents of the item's kind are in that
// write it in the item's state field, most used first; failing those, its
// kind's in either field, then every kind's.
func (e *itemEditor) usedStates(ctx context.Context) ([]index.StateUse, error) {
	field, err := e.stateField(ctx)
	if err != nil {
		return nil, err
	}
	uses, err := e.s.Store.StatesOf(ctx, e.doc.Kind, field)
	if err == nil && len(uses) == 0 {
		uses, err = e.s.Store.StatesOf(ctx, e.doc.Kind, "")
	}
	if err == nil && len(uses) == 0 {
		uses, err = e.s.Store.StatesOf(ctx, "", "")
	}
	return uses, err
}

// state is value as the repository spells a state (matched without
// case): one the documents of the item's kind are in, or one the kind's
// schema lists (check.schemas; canon check's enum-value rule holds the
// rest). Any other is refused, unless the repository uses none yet and
// the configuration's states list it.
func (e *itemEditor) state(ctx context.Context, value string) (string, error) {
	uses, err := e.usedStates(ctx)
	if err != nil {
		return "", err
	}
	names := make([]string, 0, len(uses))
	for _, u := range uses {
		if !choiceList(u.State) {
			names = append(names, u.State)
		}
	}
	for _, st := range append(schemaStates(e.s.Cfg, e.doc.Kind, e.doc.ID), e.learnedStates()...) {
		if !slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, st) }) {
			names = append(names, st)
		}
	}
	for _, n := range names {
		if strings.EqualFold(n, value) {
			return n, nil
		}
	}
	if len(names) == 0 && (e.s.Cfg.States.IsOpen(value) || e.s.Cfg.States.IsDone(value)) {
		return value, nil
	}
	if len(names) > 12 {
		names = append(names[:12], "…")
	}
	return "", fmt.Errorf("%w: %s is not a state the repository's %s documents are in or their schema lists (%s); use one of them, or set it by hand if the repository means to start using it",
		ErrItem, human.Quote(value), e.doc.Kind, strings.Join(names, ", "))
}

// choiceList reports a value copied from a template's list of choices
// (kubernetes' `status: provisional|implementable|implemented|...`): a
// document holds it, but it is no state to write or to offer.
func choiceList(v string) bool { return strings.Contains(v, "|") }

// learnedStates are the values of the learned state field (states.field)
// in their order, open then done, when the item keeps its state there.
func (e *itemEditor) learnedStates() []string {
	st := e.s.Cfg.States
	if st.Field == "" || e.stateF != st.Field {
		return nil
	}
	return slices.Concat(st.Open, st.Done)
}

// schemaStates are the states the schema of kind lists, when it holds
// for an item of that id as canon check holds it: one the configuration
// sets, or Kano's default for a Kano-shaped id. Backlog.md's BACK-12 is
// not held to Kano's states (To Do is its first state, not Proposed).
func schemaStates(cfg *config.Config, kind, id string) []string {
	if !cfg.Check.SchemasSet[kind] && (id == "" || !check.KanoShaped(cfg.IDs, id)) {
		return nil
	}
	return cfg.Check.Schemas[kind].States
}

// setField sets one field, the way canon set does: the state checked
// against the repository's, a list field's items replaced.
func (e *itemEditor) setField(ctx context.Context, fv FieldValue) error {
	if err := checkItemField(fv.Field); err != nil {
		return err
	}
	value := fv.Value
	sf, err := e.stateField(ctx)
	if err != nil {
		return err
	}
	if (fv.Field == "state" || fv.Field == "status") && sf == e.s.Cfg.States.Field && !e.has(fv.Field) {
		fv.Field = sf // state= names the field the item keeps its state in (stage)
	}
	if (fv.Field == sf || fv.Field == "state" || fv.Field == "status") && value != e.fallback {
		if value, err = e.state(ctx, value); err != nil {
			return err
		}
	}
	file, err := e.fileOf(fv.Field)
	if err != nil {
		return err
	}
	if v := e.value(fv.Field, file); v != nil && v.Kind == markdown.List {
		return e.replaceList(file, fv.Field, v, value)
	}
	changed, err := e.set.SetField(file, fv.Field, value)
	if err != nil {
		return fmt.Errorf("%w: %s: %s: %w", ErrItem, file, fv.Field, err)
	}
	if changed {
		e.out.Changes = append(e.out.Changes, FieldChange{Field: fv.Field, Op: "set", Value: value})
	}
	return nil
}

// replaceList makes a list field hold value alone (Backlog.md's
// assignee: [@bob]).
func (e *itemEditor) replaceList(file, field string, v *markdown.Value, value string) error {
	changed := false
	for _, it := range v.Items {
		if s, ok := it.Scalar(); ok && s != value {
			c, err := e.set.RemoveFromList(file, field, s)
			if err != nil {
				return fmt.Errorf("%w: %s: %w", ErrItem, field, err)
			}
			changed = changed || c
		}
	}
	if value != "" {
		c, err := e.set.AddToList(file, field, value)
		if err != nil {
			return fmt.Errorf("%w: %s: %w", ErrItem, field, err)
		}
		changed = changed || c
	}
	if changed {
		e.out.Changes = append(e.out.Changes, FieldChange{Field: field, Op: "set", Value: value})
	}
	return nil
}

// listEdit adds an item to a list field or removes one.
func (e *itemEditor) listEdit(fv FieldValue, add bool) error {
	if err := checkItemField(fv.Field); err != nil {
		return err
	}
	op, fn := "remove", e.set.RemoveFromList
	if add {
		op, fn = "add", e.set.AddToList
	}
	file, err := e.fileOf(fv.Field)
	if err != nil {
		return err
	}
	changed, err := fn(file, fv.Field, fv.Value)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrItem, fv.Field, err)
	}
	if changed {
		e.out.Changes = append(e.out.Changes, FieldChange{Field: fv.Field, Op: op, Value: fv.Value})
	}
	return nil
}

// checkItemField refuses a field canon set does not write: a name that
// is no plain key, and the id, which a rename changes everywhere.
func checkItemField(field string) error {
	switch strings.ToLower(field) {
	case "id", "uid":
		return fmt.Errorf("%w: the %s names the item everywhere it is referenced; change it with canon id rename", ErrItem, field)
	}
	if !itemFieldRE.MatchString(field) {
		return fmt.Errorf("%w: %s is not a field name canon writes (letters, digits, _ and -, starting with a letter)", ErrItem, human.Quote(field))
	}
	return nil
}

// log appends a dated line to the item's notes: its worklog, or the
// section the repository's items keep such lines in (edit.Notes).
func (e *itemEditor) log(ctx context.Context, text, agent string) error {
	text = strings.Join(strings.Fields(text), " ")
	if text == "" {
		return fmt.Errorf("%w: the worklog line is empty; say what was done", ErrItem)
	}
	line := e.now.Format("2006-01-02 15:04") + " " + text
	if agent = strings.Join(strings.Fields(agent), "-"); agent != "" {
		line = e.now.Format("2006-01-02 15:04") + " [agent=" + agent + "] " + text
	}
	f, err := e.set.Open(e.doc.Path)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrItem, err)
	}
	sec := edit.Notes(ctx, e.s.Store, e.s.Repo.Root, e.s.Cfg, e.doc, f.After)
	put, err := e.set.AppendToSection(e.doc.Path, sec, line, line)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrItem, err)
	}
	e.out.Logged, e.out.Section = line, put.Heading
	return nil
}

// EditItem makes one call's changes to one item: canon set, claim, done
// and log, and their MCP tools. The edits are checked as canon check
// would check the file (a change that brings a new finding is refused,
// and nothing is written), written all or none with the index synced,
// and with Commit committed alone.
func EditItem(ctx context.Context, s *gitsync.Session, a ItemArgs) (*ItemEdited, error) {
	e, err := newItemEditor(ctx, s, a.Ref)
	if err != nil {
		return nil, err
	}
	return e.run(ctx, a)
}

func (e *itemEditor) plan(ctx context.Context, a ItemArgs) error {
	if len(a.Set)+len(a.Add)+len(a.Remove) == 0 && a.Log == "" {
		return fmt.Errorf("%w: nothing to change; give FIELD=VALUE, --add, --remove or a worklog line", ErrItem)
	}
	for _, fv := range a.Set {
		if err := e.setField(ctx, fv); err != nil {
			return err
		}
	}
	for _, fv := range a.Add {
		if err := e.listEdit(fv, true); err != nil {
			return err
		}
	}
	for _, fv := range a.Remove {
		if err := e.listEdit(fv, false); err != nil {
			return err
		}
	}
	if a.Log != "" {
		if err := e.log(ctx, a.Log, a.Agent); err != nil {
			return err
		}
	}
	return nil
}

// finish touches the item's updated: field (when it has one), checks,
// and writes (or diffs) the item.
func (e *itemEditor) finish(ctx context.Context, a ItemArgs) (*ItemEdited, error) {
	files := e.set.Files()
	if len(files) == 0 {
		return e.out, nil // every field already held its value
	}
	fm := e.md.Frontmatter
	// updated, updated_date: added only as the tool adds it; a KEP's
	// last-updated in its kep.yaml, when the README has no frontmatter a
	// new updated: would go into.
	touchSide := e.sideFields.Field(edit.UpdatedField(e.sideFields)) != nil && fieldCount(fm) == 0
	if touchSide || fm.Get(edit.UpdatedField(fm)) != nil || toolAddsUpdated[e.s.Cfg.Tool] && fm.Get("created_date") != nil {
		e.set.Touch(e.now)
	}
	planned := map[string][]byte{}
	var paths []string
	for _, f := range files {
		planned[f.Path], paths = f.After, append(paths, f.Path)
		if f.Updated != "" {
			e.out.Updated = f.Updated
		}
	}
	preview, err := e.s.CheckPlanned(ctx, planned)
	if err != nil {
		return nil, err
	}
	if bad := introduced(preview.Findings); len(bad) > 0 {
		return nil, fmt.Errorf("%w: canon check would report %s; nothing is written", ErrItem, strings.Join(bad, "; "))
	}
	if a.DryRun {
		e.out.DryRun = true
		e.out.Diff = edit.Diff(files)
		return e.out, nil
	}
	if _, err := e.set.Apply(ctx, e.s, itemCommand(a), nil); err != nil {
		return nil, err
	}
	e.out.Written = append(e.out.Written, paths...)
	if a.Commit {
		if e.out.Commit, err = commitItem(ctx, e.s, paths, e.commitMessage(a)); err != nil {
			return nil, err
		}
	}
	if doc, err := e.s.Store.FindOne(ctx, e.doc.Path); err == nil {
		e.out.Item = *doc
	}
	return e.out, nil
}

// toolAddsUpdated are the tools whose edits add the date of the last
// change where an item has none: Backlog.md's task edit writes
// updated_date, in its created_date's layout, at an item's first edit
// (canon new leaves it out, as task create does).
var toolAddsUpdated = map[string]bool{"backlog.md": true}

// introduced are the findings an edit brings, errors and warnings, as
// canon check prints them.
func introduced(fs []index.Problem) []string {
	var out []string
	for _, f := range fs {
		if f.Severity == "error" || f.Severity == "warning" {
			out = append(out, fmt.Sprintf("%s:%d:%d: %s %s: %s", f.Path, f.Line, f.Col, f.Severity, f.Rule, f.Message))
		}
	}
	return out
}

func itemCommand(a ItemArgs) string {
	if a.Command != "" {
		return a.Command
	}
	return "canon set"
}

// commitMessage says what changed, in one line: "T-1: state InProgress,
// assignee bob (canon claim)".
func (e *itemEditor) commitMessage(a ItemArgs) string {
	var parts []string
	for _, c := range e.out.Changes {
		switch c.Op {
		case "set":
			parts = append(parts, c.Field+" "+c.Value)
		default:
			parts = append(parts, c.Op+" "+c.Value+" to "+c.Field)
		}
	}
	if e.out.Logged != "" {
		parts = append(parts, "worklog")
	}
	msg := e.doc.ID + ": " + strings.Join(parts, ", ")
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	return msg + " (" + itemCommand(a) + ")"
}

// commitItem commits the files at rels alone (the item's, its sidecar;
// git commit --only: whatever else is staged stays staged) and returns
// the commit's short hash. The hooks run as for any commit.
func commitItem(ctx context.Context, s *gitsync.Session, rels []string, msg string) (string, error) {
	lits := make([]string, 0, len(rels))
	for _, r := range rels {
		lits = append(lits, gitsync.Literal(r))
	}
	if _, err := s.Repo.Git(ctx, append([]string{"add", "--"}, lits...)...); err != nil {
		return "", fmt.Errorf("the item is written, but git add failed (commit it by hand): %w", err)
	}
	if _, err := s.Repo.Git(ctx, append([]string{"commit", "-q", "--only", "--message=" + msg, "--"}, lits...)...); err != nil {
		return "", fmt.Errorf("the item is written, but git commit failed (commit it by hand): %w", err)
	}
	out, err := s.Repo.Git(ctx, "rev-parse", "--short", "HEAD")
	if err != nil {
		return "", err
	}
	if _, err := s.Fresh(ctx); err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// Claim is canon claim: the item's assignee set to as, and its state to
// the first in-progress state the repository uses; refused when the item
// is taken here or on another ref (taken), unless a.Force.
func Claim(ctx context.Context, s *gitsync.Session, ref, as string, a ItemArgs) (*ItemEdited, error) {
	if strings.TrimSpace(as) == "" {
		return nil, fmt.Errorf("%w: say who claims it: --as NAME (MCP: as), CANON_AGENT or git's user.name", ErrItem)
	}
	e, err := newItemEditor(ctx, s, ref)
	if err != nil {
		return nil, err
	}
	sf, st, err := e.workState(ctx, graph.InProgressWords(), false, func(uses []index.StateUse) string {
		if spaced(uses) {
			return "In Progress"
		}
		return "InProgress"
	})
	if err != nil {
		return nil, err
	}
	af, err := e.spelling(ctx, "assignee", "owner", "assignees")
	if err != nil {
		return nil, err
	}
	if err := e.inventsSidecarField(ctx, af, "assignee", "owner", "assignees"); err != nil {
		return nil, err
	}
	if !a.Force {
		if err := e.taken(ctx, af, as, st != ""); err != nil {
			return nil, err
		}
	}
	a.Ref, a.Command = ref, "canon claim"
	claim := []FieldValue{{Field: af, Value: as}}
	if st != "" {
		claim = append(claim, FieldValue{Field: sf, Value: st})
	}
	a.Set = append(claim, a.Set...)
	return e.run(ctx, a)
}

// Done is canon done: the item's state set to the done state the
// repository uses.
func Done(ctx context.Context, s *gitsync.Session, ref string, a ItemArgs) (*ItemEdited, error) {
	e, err := newItemEditor(ctx, s, ref)
	if err != nil {
		return nil, err
	}
	sf, st, err := e.workState(ctx, doneWords, true, func([]index.StateUse) string { return "Done" })
	if err != nil {
		return nil, err
	}
	if st == "" {
		return nil, fmt.Errorf("%w: no value of %s says the work is done (states.done); set one with canon set", ErrItem, sf)
	}
	a.Ref, a.Command = ref, "canon done"
	a.Set = append([]FieldValue{{Field: sf, Value: st}}, a.Set...)
	return e.run(ctx, a)
}

// workState is the item's state field and the state claim or done
// writes: the used state words name (pickState), else fallback's, which
// is written though no document is in it yet.
func (e *itemEditor) workState(ctx context.Context, words []string, anyDone bool, fallback func([]index.StateUse) string) (field, state string, err error) {
	uses, err := e.usedStates(ctx)
	if err != nil {
		return "", "", err
	}
	if field, err = e.stateField(ctx); err != nil {
		return "", "", err
	}
	if learned := e.learnedStates(); learned != nil {
		return field, e.learnedState(learned, uses, words, anyDone), nil
	}
	if state = pickState(uses, e.s.Cfg.States.IsDone, words, anyDone); state == "" && !learnedLifecycle(e.s.Cfg.States, uses) {
		state = fallback(uses)
		e.fallback = state
	}
	return field, state, nil
}

// learnedState is the state claim or done writes in a learned state
// field, a value init learned and never one made up: for done the first
// done value in the learned order (released, before recommended) that
// words do not name first; for a claim the open value words name, else
// none ("": the state stays, as an RFC's accepted stays while it is
// built).
func (e *itemEditor) learnedState(learned []string, uses []index.StateUse, words []string, anyDone bool) string {
	st := e.s.Cfg.States
	var pool []index.StateUse
	for _, v := range learned {
		if st.IsDone(v) == anyDone {
			pool = append(pool, index.StateUse{State: v})
		}
	}
	if v := pickState(pool, st.IsDone, words, false); v != "" {
		return v
	}
	if anyDone {
		// The first done value that is in use, else the first.
		for _, p := range pool {
			if slices.ContainsFunc(uses, func(u index.StateUse) bool { return strings.EqualFold(u.State, p.State) }) {
				return p.State
			}
		}
		if len(pool) > 0 {
			return pool[0].State
		}
	}
	return ""
}

func (e *itemEditor) run(ctx context.Context, a ItemArgs) (*ItemEdited, error) {
	if err := e.plan(ctx, a); err != nil {
		return nil, err
	}
	return e.finish(ctx, a)
}

// doneWords are the words of a done state, by preference, as
// graph.StateWord folds them (graph.InProgressWords those of an
// in-progress one).
var doneWords = []string{"done", "completed", "complete", "closed", "resolved", "finished", "accepted"}

// pickState is the used state that folds to the first of words that any
// folds to; failing that, with anyDone, the most used state isDone takes.
func pickState(uses []index.StateUse, isDone func(string) bool, words []string, anyDone bool) string {
	for _, w := range words {
		for _, u := range uses {
			if graph.StateWord(u.State) == w {
				return u.State
			}
		}
	}
	if anyDone {
		for _, u := range uses {
			if isDone(u.State) {
				return u.State
			}
		}
	}
	return ""
}

// spaced reports whether the repository writes states of several words
// with spaces (To Do): its in-progress state is then In Progress.
func spaced(uses []index.StateUse) bool {
	for _, u := range uses {
		if strings.Contains(u.State, " ") {
			return true
		}
	}
	return false
}

// WriteText says what changed, one line each, the diff of a dry run, and
// where it was written or committed.
func (r *ItemEdited) WriteText(w io.Writer) error {
	if r.DryRun {
		fmt.Fprint(w, r.Diff)
	}
	name := r.Item.ID
	if len(r.Changes) == 0 && r.Logged == "" {
		_, err := fmt.Fprintf(w, "%s already holds that; nothing to write\n", name)
		return err
	}
	for _, c := range r.Changes {
		switch c.Op {
		case "set":
			fmt.Fprintf(w, "%s: %s → %s\n", name, c.Field, human.Quote(c.Value))
		case "add":
			fmt.Fprintf(w, "%s: %s + %s\n", name, c.Field, human.Quote(c.Value))
		default:
			fmt.Fprintf(w, "%s: %s − %s\n", name, c.Field, human.Quote(c.Value))
		}
	}
	if r.Logged != "" {
		sec := r.Section
		if sec == "" {
			sec = "worklog"
		}
		fmt.Fprintf(w, "%s: %s + %s\n", name, sec, human.Quote(r.Logged))
	}
	written := make([]string, 0, len(r.Written))
	for _, p := range r.Written {
		written = append(written, human.QuotePath(p))
	}
	var err error
	switch {
	case r.DryRun:
		_, err = fmt.Fprintln(w, "dry run: nothing written")
	case r.Commit != "":
		_, err = fmt.Fprintf(w, "wrote %s; committed as %s\n", strings.Join(written, ", "), r.Commit)
	case len(r.Written) > 0:
		_, err = fmt.Fprintf(w, "wrote %s; nothing is committed (--commit commits it alone)\n", strings.Join(written, ", "))
	}
	return err
}

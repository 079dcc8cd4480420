package usecase

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/scan"
)

// An item's fields may be in a sidecar beside it (config.Sidecars: a
// KEP's kep.yaml, ADR-0084): canon set, claim and done write a field in
// the file the item reads it from (ADR-0090).

// findSidecar finds the sidecar the item takes its fields from: the
// first of config.Sidecars beside it that exists, as the index reads it.
func (e *itemEditor) findSidecar() {
	for _, p := range scan.SidecarsOf(e.s.Cfg, e.doc.Path) {
		if !e.set.Exists(p) {
			continue
		}
		e.side = p
		f, err := e.set.Open(p)
		if err != nil {
			e.sideErr = fmt.Errorf("%s cannot be written: %w", p, err)
			return
		}
		if e.sideFields, err = markdown.ParseSidecar(f.Before); err != nil {
			e.sideErr = fmt.Errorf("%s does not parse (%w); fix it by hand", p, err)
		}
		return
	}
}

// has reports whether the item has field at the top level: in its
// frontmatter or its sidecar.
func (e *itemEditor) has(field string) bool {
	return e.md.Frontmatter.Get(field) != nil || e.sideFields.Get(field) != nil
}

// fileOf is the file that holds field (its first part, for links.owner):
// the item's own when its frontmatter has it; its sidecar when that has
// it; a field in neither goes where the item keeps more of its fields (a
// KEP's README has no frontmatter: its kep.yaml). A sidecar that cannot
// be read or parsed is an error only for a field that goes there.
func (e *itemEditor) fileOf(field string) (string, error) {
	head, _, _ := strings.Cut(field, ".")
	switch {
	case e.side == "" || e.md.Frontmatter.Get(head) != nil:
		return e.doc.Path, nil
	case e.sideErr != nil:
		return "", fmt.Errorf("%w: its %s is in %s: %w", ErrItem, field, e.side, e.sideErr)
	case e.sideFields.Get(head) != nil:
		return e.side, nil
	case len(e.sideFields.Fields) > fieldCount(e.md.Frontmatter):
		return e.side, nil
	}
	return e.doc.Path, nil
}

// fieldCount is how many fields a frontmatter has (none for no
// frontmatter).
func fieldCount(fm *markdown.Value) int {
	if fm == nil {
		return 0
	}
	return len(fm.Fields)
}

// value is the value field has in the file that holds it (fileOf).
func (e *itemEditor) value(field, file string) *markdown.Value {
	if file == e.side {
		return e.sideFields.Get(field)
	}
	return e.md.Frontmatter.Get(field)
}

// learnedLifecycle reports states in use that the configuration lists
// beyond canon's defaults (init learned them: a KEP's provisional,
// implementable, implemented): the repository's lifecycle is its own,
// and a claim that finds no in-progress state in it leaves the state as
// it is rather than writing one the repository does not know.
func learnedLifecycle(st config.States, uses []index.StateUse) bool {
	def := config.DefaultStates()
	for _, u := range uses {
		known := def.IsOpen(u.State) || def.IsDone(u.State)
		if !known && (st.IsOpen(u.State) || st.IsDone(u.State)) {
			return true
		}
	}
	return false
}

// inventsSidecarField refuses a claim that would add an assignee (field,
// the spelling of names it picked) to the item's sidecar when no
// document that reads a sidecar holds any of names: a sidecar's fields are another tool's
// schema (Kubernetes' KEP tooling reads kep.yaml, which has no assignee),
// and canon must not make one up. A sidecar that has the field already,
// or a repository whose documents name one, is written as before.
func (e *itemEditor) inventsSidecarField(ctx context.Context, field string, names ...string) error {
	file, err := e.fileOf(field)
	if err != nil || e.side == "" || file != e.side || e.sideFields.Get(field) != nil {
		return err
	}
	if held, err := e.s.Store.SidecarHolds(ctx, names...); err != nil || held {
		return err
	}
	name := e.doc.ID
	if name == "" {
		name = e.doc.Path
	}
	return fmt.Errorf("%w: %s keeps its fields in %s, and no %s here names an assignee (%s), so canon claim wrote nothing; to record who has it, set the field the repository uses: canon set %s FIELD=NAME", ErrItem, name, e.side, path.Base(e.side), strings.Join(names, ", "), name)
}

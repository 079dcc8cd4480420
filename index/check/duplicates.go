package check

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/internal/checkreads"
)

// Duplicate ids: two documents that claim one id, reported at each, with
// what tells them apart.

// duplicates reports every location of an id or uid a checked document
// shares with another. One grouped query per batch of values finds the
// shared ones; only those are looked up further.
func (c *checker) duplicates() error {
	for _, dim := range []struct {
		rule, what string
		of         func(*doc) string
		shared     func(context.Context, index.Querier, []string) ([]string, error)
		holders    func(context.Context, index.Querier, string) ([]checkreads.Holder, error)
	}{
		{"duplicate-id", "id", func(d *doc) string { return d.ident }, checkreads.SharedIdents, checkreads.IdentHolders},
		{"duplicate-uid", "uid", func(d *doc) string { return d.uid }, checkreads.SharedUIDs, checkreads.UIDHolders},
	} {
		var vals []string
		seen := map[string]bool{}
		for _, d := range c.full() {
			if v := dim.of(d); v != "" && !seen[v] {
				seen[v] = true
				vals = append(vals, v)
			}
		}
		shared, err := dim.shared(c.ctx, c.q, vals)
		if err != nil {
			return err
		}
		for _, v := range shared {
			hs, err := dim.holders(c.ctx, c.q, v)
			if err != nil {
				return err
			}
			c.duplicate(dim.rule, dim.what, v, hs)
		}
	}
	return nil
}

// duplicate reports each of the documents holding the same id or uid
// (val) where it clashes with another.
func (c *checker) duplicate(rule, what, val string, hs []checkreads.Holder) {
	type loc struct {
		path      string
		line, col int
		uid       string
	}
	locs := make([]loc, 0, len(hs))
	for _, h := range hs {
		if c.in.Cfg.LeftOut(h.Path) {
			continue // a template or a test fixture's copy (templates:, fixtures:) claims no id
		}
		l := loc{path: h.Path, line: h.Line, uid: h.UID}
		var pm map[string][2]int
		if err := json.Unmarshal([]byte(h.FieldPos), &pm); err == nil {
			l.col = pm[what][1]
		} // no positions recorded: the finding names the line only
		locs = append(locs, l)
	}
	// Ids are unique within a namespace: documents in two of them may
	// share one. A uid is unique everywhere.
	nsOf := func(p string) string {
		if what == "uid" {
			return ""
		}
		name, _ := c.in.Cfg.Namespaces.Of(p)
		return name
	}
	// An archived document's id is free again: Backlog.md hands the id
	// of an archived or completed task to a new one on purpose, so a pair
	// with one side in an archive folder (work.archive) is no clash. A uid
	// is unique everywhere.
	archived := func(p string) bool { return what == "id" && c.in.Cfg.Work.Archived(p) }
	clash := func(a, b loc) bool { return nsOf(a.path) == nsOf(b.path) && !archived(a.path) && !archived(b.path) }
	for i, l := range locs {
		var others []string
		uids := l.uid != ""
		for j, o := range locs {
			if j != i && clash(l, o) {
				others = append(others, o.path)
				uids = uids || o.uid != ""
			}
		}
		if len(others) == 0 {
			continue
		}
		msg := fmt.Sprintf("id %s is also used by %s; give one of them a new id", val, strings.Join(others, ", "))
		if uids {
			msg += fmt.Sprintf(" (meanwhile references can say %s@uidprefix)", val)
		}
		if what == "uid" {
			msg = fmt.Sprintf("uid %s is also used by %s; a uid must be unique, give one of them a new one", val, strings.Join(others, ", "))
		}
		c.addField(l.path, l.line, l.col, what, val, rule, val, msg)
	}
}

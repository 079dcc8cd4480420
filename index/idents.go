package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
)

// IdentDoc is a document with an id: what canon id rename, id fix and
// id next read of the index.
type IdentDoc struct {
	Key, Path, Ident, UID string
	Kind                  string
	IdentLine             int
}

// IdentDocs lists every document that has an id, by path.
func (s *Store) IdentDocs(ctx context.Context) ([]IdentDoc, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT key, path, ident, uid, kind, ident_line FROM docs WHERE ident <> '' ORDER BY path`)
	if err != nil {
		return nil, err
	}
	return scanAll(rows, func(r *sql.Rows) (IdentDoc, error) {
		var d IdentDoc
		return d, r.Scan(&d.Key, &d.Path, &d.Ident, &d.UID, &d.Kind, &d.IdentLine)
	})
}

// Collision is an id that names more than one document: two different
// items, not one item in two places.
type Collision struct {
	Ident string
	Docs  []IdentDoc // by path; two at least
}

// Collisions finds the ids that name two different documents among docs
// (ADR-0043): ids are compared without case within a namespace; documents
// that share a uid (or a path) are one item in two versions, not a
// collision; a document in an archive folder (work.archive) is left out,
// its id being free again by the convention of Backlog.md and its kind.
func Collisions(docs []IdentDoc, cfg *config.Config) []Collision {
	type group struct {
		ident string
		docs  []IdentDoc
	}
	groups := map[string]*group{}
	var order []string
	for _, d := range docs {
		if d.Ident == "" || cfg.Work.Archived(d.Path) {
			continue
		}
		ns, _ := cfg.Namespaces.Of(d.Path)
		k := ns + "\x00" + strings.ToLower(d.Ident)
		g := groups[k]
		if g == nil {
			g = &group{ident: d.Ident}
			groups[k] = g
			order = append(order, k)
		}
		same := false
		for _, o := range g.docs {
			same = same || o.Path == d.Path || (o.UID != "" && strings.EqualFold(o.UID, d.UID))
		}
		if !same {
			g.docs = append(g.docs, d)
		}
	}
	sort.Strings(order)
	var out []Collision
	for _, k := range order {
		if g := groups[k]; len(g.docs) > 1 {
			ds := append([]IdentDoc(nil), g.docs...)
			sort.Slice(ds, func(i, j int) bool { return ds[i].Path < ds[j].Path })
			out = append(out, Collision{Ident: g.ident, Docs: ds})
		}
	}
	return out
}

// RefID is an id a document carries on another ref than the working tree:
// a local branch, a remote-tracking branch, a linked worktree's HEAD.
type RefID struct {
	Ref, Path, Ident string
}

// RefIDs yields the ids of every other ref, for canon id next to look
// beyond the working tree: gitsync.Session.RefIDs, from the per-ref
// overlays (ADR-0042, ADR-0043).
type RefIDs func(ctx context.Context) ([]RefID, error)

// numberedID is an id the repository numbers: a prefix (letters, digits,
// '_' and '-', ending in a non-digit) and a number: KB-TSK-0007, task-12,
// ADR-0043. Child ids (task-12.1) are not numbered ids of a series.
var numberedID = lazyre.MustCompile(`^([A-Za-z][A-Za-z0-9_-]*[^0-9.])([0-9]{1,18})$`)

// SplitID splits a numbered id into its prefix, number and width (the
// number of digits when written with leading zeros, else 0).
func SplitID(id string) (prefix string, n int64, width int, ok bool) {
	m := numberedID.FindStringSubmatch(id)
	if m == nil {
		return "", 0, 0, false
	}
	n, err := strconv.ParseInt(m[2], 10, 64)
	if err != nil {
		return "", 0, 0, false
	}
	if len(m[2]) > 1 && m[2][0] == '0' {
		width = len(m[2])
	}
	return m[1], n, width, true
}

// PrefixOf is the id prefix of a kind in the repository: the one most of
// its documents' numbered ids carry (ties: the first in text order). A
// kind no document has is taken as a prefix itself when ids carry it
// (KB-TSK, task-, ADR), matched without case. ok is false when neither.
func PrefixOf(docs []IdentDoc, kind string) (prefix string, ok bool) {
	return prefixOf(docs, kind, config.IDs{})
}

// prefixOf is PrefixOf with the ids a random or time scheme minted split
// by the scheme (ADR-0044).
func prefixOf(docs []IdentDoc, kind string, ids config.IDs) (prefix string, ok bool) {
	count := map[string]int{}
	for _, d := range docs {
		if strings.EqualFold(d.Kind, kind) {
			if p, ok := schemePrefix(d.Ident, ids); ok {
				count[p]++
			}
		}
	}
	best := ""
	for p, n := range count {
		if n > count[best] || n == count[best] && p < best {
			best = p
		}
	}
	if best != "" {
		return best, true
	}
	for _, d := range docs {
		if p, ok := schemePrefix(d.Ident, ids); ok && (strings.EqualFold(p, kind) || strings.EqualFold(p, kind+"-")) {
			return p, true
		}
	}
	return "", false
}

// NextID is the next free id of a prefix given every id taken anywhere:
// the highest number among those of the prefix (matched without case)
// plus one, written with the widest zero padding they use.
func NextID(prefix string, taken []string) string {
	var highest int64
	width := 0
	for _, id := range taken {
		p, n, w, ok := SplitID(id)
		if !ok || !strings.EqualFold(p, prefix) {
			continue
		}
		if n > highest {
			highest = n
		}
		if w > width {
			width = w
		}
	}
	return fmt.Sprintf("%s%0*d", prefix, width, highest+1)
}

// ErrNoSeries says canon id next found no numbered id of the kind or
// prefix it was asked for.
var ErrNoSeries = errors.New("no id series")

// NextFree is canon id next: the next id of kind's prefix (PrefixOf) in
// namespace ("" for every document) that no document has in the working
// tree (docs), on any other ref (refs, when given) or in reserved (ids
// handed out already in the same run). Under a random or time scheme
// (ids.scheme) the id is minted, drawn again while it is taken.
func NextFree(ctx context.Context, docs []IdentDoc, cfg *config.Config, kind, namespace string, refs RefIDs, reserved ...string) (string, error) {
	in := func(p string) bool {
		if namespace == "" {
			return true
		}
		name, _ := cfg.Namespaces.Of(p)
		return strings.EqualFold(name, namespace)
	}
	var mine []IdentDoc
	taken := append([]string(nil), reserved...)
	for _, d := range docs {
		if in(d.Path) {
			mine = append(mine, d)
			taken = append(taken, d.Ident)
		}
	}
	prefix, ok := prefixOf(mine, kind, cfg.IDs)
	if !ok {
		return "", fmt.Errorf("%w: no document has a numbered id of kind or prefix %s; name a kind whose documents have ids (KB-TSK-0001, task-1, ADR-0001) or such a prefix", ErrNoSeries, kind)
	}
	if refs != nil {
		others, err := refs(ctx)
		if err != nil {
			return "", err
		}
		for _, r := range others {
			if in(r.Path) {
				taken = append(taken, r.Ident)
			}
		}
	}
	if cfg.IDs.Minted() {
		return mintFree(prefix, cfg.IDs, taken, mintNow, mintRand)
	}
	return NextID(prefix, taken), nil
}

// IdentDocsSharing lists, by path, the documents whose id one of the
// documents at paths carries (those documents included): what the hooks
// read to tell a collision the sync made, through the ident index rather
// than every document.
func (s *Store) IdentDocsSharing(ctx context.Context, paths []string) ([]IdentDoc, error) {
	var out []IdentDoc
	err := eachIn(ctx, s.db, `SELECT key, path, ident, uid, kind, ident_line FROM docs
		WHERE ident IN (SELECT ident FROM docs WHERE path IN (%s) AND ident <> '')`, nil, anys(paths), nil, func(r *sql.Rows) error {
		var d IdentDoc
		err := r.Scan(&d.Key, &d.Path, &d.Ident, &d.UID, &d.Kind, &d.IdentLine)
		out = append(out, d)
		return err
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// RecordPaths lists the paths of the documents of kind that have no id
// (numbered records: 0007-use-x.md, as adr-tools and MADR name them), for
// canon id next when no document of kind has a numbered id.
func (s *Store) RecordPaths(ctx context.Context, kind string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT path FROM docs WHERE ident = '' AND kind = ? ORDER BY path`, kind)
	if err != nil {
		return nil, err
	}
	return scanAll(rows, func(r *sql.Rows) (string, error) {
		var p string
		return p, r.Scan(&p)
	})
}

// NextRecordNumber is the number of the next numbered record among paths
// (in namespace, "" for all): the highest number a file name starts with
// (0018 of 0018-x.md; 0013 of 0013.1-x.md; 017 of adr-017-x.md, written
// with its prefix: adr-018), plus one, as wide as the widest (0019). Dated
// names (20240301-x.md) are no series. ok is false when no path is
// numbered.
func NextRecordNumber(paths []string, cfg *config.Config, namespace string) (string, bool) {
	var highest int64
	width, found := 0, false
	prefix := "" // the highest's (adr- of adr-017-x.md)
	for _, p := range paths {
		if namespace != "" {
			if name, _ := cfg.Namespaces.Of(p); !strings.EqualFold(name, namespace) {
				continue
			}
		}
		num, pre := resolve.FileNumber(p), ""
		if name := resolve.RecordName(p); num == "" && name != "" {
			num, pre = name[4:], markdown.Stem(p)[:4] // adr-017: its prefix as the file writes it
		}
		if num == "" || markdown.DatedName(markdown.Stem(p)) {
			continue
		}
		whole, _, _ := strings.Cut(num, ".")
		n, err := strconv.ParseInt(whole, 10, 64)
		if err != nil || len(whole) > 9 {
			continue
		}
		if !found || n > highest {
			prefix = pre
		}
		found = true
		highest, width = max(highest, n), max(width, len(whole))
	}
	return fmt.Sprintf("%s%0*d", prefix, width, highest+1), found
}

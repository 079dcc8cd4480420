// Package ids is how canon tells, counts and mints ids (docs/ids.md,
// ADR-0043, ADR-0044, ADR-0065): the ids that name two documents
// (Collisions), the series a kind numbers (Split, PrefixOf), the next free
// id of a series in the working tree and on every other ref (Next,
// NextFree, NextRecordNumber for numbered records), and the random and
// time schemes that mint a suffix instead of counting (Mint).
//
// It works on the documents it is handed (Doc: what index.Store.IdentDocs
// and IdentDocsSharing read, what gitsync reads of other refs) and on the
// configuration (namespaces, the archive, ids.scheme).
//
// What it must not do: open a database, read a file or know of git; the
// ids of other refs come through a RefIDs it is handed. On the ladder
// cmd → usecase → hooks → gitsync, workset → graph → index it sits at
// the bottom with index's other sub-packages, under index (which imports
// it for the Doc its reads return); it imports index/config,
// index/markdown, index/resolve and index/lazyre only.
package ids

import (
	"context"
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

// Doc is a document with an id: what canon id rename, id fix and
// id next read of the index.
type Doc struct {
	Key, Path, Ident, UID string
	Kind                  string
	IdentLine             int
}

// Collision is an id that names more than one document: two different
// items, not one item in two places.
type Collision struct {
	Ident string
	Docs  []Doc // by path; two at least
}

// Collisions finds the ids that name two different documents among docs
// (ADR-0043): ids are compared without case within a namespace; documents
// that share a uid (or a path) are one item in two versions, not a
// collision; a document in an archive folder (work.archive) is left out,
// its id being free again by the convention of Backlog.md and its kind.
func Collisions(docs []Doc, cfg *config.Config) []Collision {
	type group struct {
		ident string
		docs  []Doc
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
			ds := append([]Doc(nil), g.docs...)
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

// Split splits a numbered id into its prefix, number and width (the
// number of digits when written with leading zeros, else 0).
func Split(id string) (prefix string, n int64, width int, ok bool) {
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
func PrefixOf(docs []Doc, kind string) (prefix string, ok bool) {
	return prefixOf(docs, kind, config.IDs{})
}

// prefixOf is PrefixOf with the ids a random or time scheme minted split
// by the scheme (ADR-0044).
func prefixOf(docs []Doc, kind string, ids config.IDs) (prefix string, ok bool) {
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

// Next is the next free id of a prefix given every id taken anywhere:
// the highest number among those of the prefix (matched without case)
// plus one, written with the widest zero padding they use.
func Next(prefix string, taken []string) string {
	var highest int64
	width := 0
	for _, id := range taken {
		p, n, w, ok := Split(id)
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
// (ids.scheme) the id is minted, drawn again while it is taken. The id a
// file name carries is taken too (resolve.FileID: Backlog.md's archived
// "task-35 - Fix-x.md" without frontmatter holds task-35): docs may hold
// documents without an id for their file names alone.
func NextFree(ctx context.Context, docs []Doc, cfg *config.Config, kind, namespace string, refs RefIDs, reserved ...string) (string, error) {
	in := func(p string) bool {
		if namespace == "" {
			return true
		}
		name, _ := cfg.Namespaces.Of(p)
		return strings.EqualFold(name, namespace)
	}
	var mine []Doc
	taken := append([]string(nil), reserved...)
	for _, d := range docs {
		if in(d.Path) {
			mine = append(mine, d)
			taken = append(taken, d.Ident)
			if n := resolve.FileID(d.Path); n != "" {
				taken = append(taken, n)
			}
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
	return Next(prefix, taken), nil
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

// childID is a child's id: BACK-12.3.
var childID = lazyre.MustCompile(`^(.+)\.([0-9]{1,9})$`)

// Child splits a child's id (BACK-12.3) into its parent's id and its
// number; ok is false for an id that names no child.
func Child(id string) (parent string, n int, ok bool) {
	m := childID.FindStringSubmatch(id)
	if m == nil {
		return "", 0, false
	}
	n, err := strconv.Atoi(m[2])
	return m[1], n, err == nil
}

// Series is the series an id is numbered in and its number there: a
// child's (BACK-12.1) is its parent's; else Split's prefix and number,
// or the id without its trailing digits and 0.
func Series(id string) (prefix string, n int64) {
	if p, _, ok := Child(id); ok {
		id = p
	}
	if prefix, n, _, ok := Split(id); ok {
		return prefix, n
	}
	return strings.TrimRight(id, "0123456789"), 0
}

// IndexedSeries reports a prefix whose series the index's series indexes
// answer (ADR-0085): one an id splits into with a number after it, in
// ASCII (the index lower-cases by byte).
func IndexedSeries(prefix string) bool {
	if p, _, _, ok := Split(prefix + "1"); !ok || p != prefix {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if prefix[i] >= 0x80 {
			return false
		}
	}
	return true
}

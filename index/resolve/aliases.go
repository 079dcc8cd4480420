package resolve

import (
	"path"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/markdown"
)

// A document's names: the alias terms stored for it (its uid, id, stem,
// file number, folder, old prefixes' names and title) and the match keys
// a link's last name is compared with.

// AliasTerms are the terms the alias table stores for a document: uid:,
// id:, stem:, num: (a file number or a record's name), dir: (a folder's
// page), was: (an old prefix's names) and title:.
func AliasTerms(d Identity) []string {
	terms := make([]string, 0, 5)
	if d.UID != "" {
		terms = append(terms, "uid:"+strings.ToLower(d.UID))
	}
	if d.ID != "" {
		terms = append(terms, "id:"+strings.ToLower(d.ID))
	}
	terms = append(terms, "stem:"+strings.ToLower(markdown.Stem(d.Path)))
	if n := FileNumber(d.Path); n != "" {
		terms = append(terms, "num:"+n)
	}
	if n := nameOfFile(d); n != "" {
		terms = append(terms, "num:"+n) // adr-004 of adr-004-module-loading.md, task-97 of "task-97 - Fix-x.md"
	}
	if name := markdown.DisplayStem(d.Path); name != markdown.Stem(d.Path) {
		terms = append(terms, "dir:"+strings.ToLower(name)) // canon show 2400-node-swap: its folder's page
		if n := FileNumber(name); n != "" {
			terms = append(terms, "num:"+n) // replaces: ["6090"], canon search 2400: a KEP's folder's number
		}
	}
	for _, k := range d.oldNames() {
		terms = append(terms, "was:"+k)
	}
	if t := TitleKey(d.Title); t != "" {
		terms = append(terms, "title:"+t)
	}
	return terms
}

// TitleKey is the name a title gives its document to a reference that
// names a page by its title (Just the Docs' parent: Getting Started) and
// to a name typed whole (canon show, a query that is a title),
// lower-cased, its spaces one. A title with a slash ("Client/server
// split") has its key too: a reference that reads as a path is planned as
// one (refPlan tries a title only when the whole reference is its file
// stem, which holds no slash), and Find tries a name as a path, a stem and
// an id before it tries it as a title, so a path that names a file wins.
func TitleKey(title string) string {
	return strings.ToLower(strings.Join(strings.Fields(title), " "))
}

// oldNames are the names an old prefix gives the document (task-4 for
// BACK-4 when config.Prefixes maps task to back), and its bare number (4),
// lower-cased: the tool names a task by its number (Backlog.md). A
// document of a prefix in config.BareNumbers has its bare number too; one
// without an id is named by its file stem (eip-2718.md: 2718).
func (d Identity) oldNames() []string {
	if len(d.Olds) == 0 {
		return nil
	}
	id := d.ID
	if id == "" {
		id = markdown.Stem(d.Path)
	}
	p, n, ok := PrefixNumber(id)
	if !ok {
		return nil
	}
	if _, named := d.Olds[p]; !named {
		return nil
	}
	n = strings.ToLower(n)
	out := []string{n}
	for _, old := range d.Olds[p] {
		out = append(out, old+"-"+n)
	}
	return out
}

// OldPrefixes turns config.Prefixes (old → new) into new → the old ones,
// sorted, with each of config.BareNumbers (bare) a prefix whose numbers
// alone name its documents.
func OldPrefixes(m map[string]string, bare []string) map[string][]string {
	if len(m) == 0 && len(bare) == 0 {
		return nil
	}
	out := map[string][]string{}
	for _, p := range bare {
		out[p] = nil
	}
	for old, now := range m {
		out[now] = append(out[now], old)
	}
	for _, olds := range out {
		sort.Strings(olds)
	}
	return out
}

// OldPrefixIDs are the ids a reference names through prefixes (ADR-0051),
// lower-cased: back-4 for task-4 when prefixes maps task to back, and for
// a bare 4 the number under each prefix the map leads to or bare lists
// (config.BareNumbers), sorted. It is oldNames seen from the reference;
// resolution tries it last, after the reference's own id, uid, path and
// stem.
func OldPrefixIDs(ref string, prefixes map[string]string, bare []string) []string {
	ref = strings.ToLower(strings.TrimSpace(ref))
	if p, n, ok := PrefixNumber(ref); ok {
		if to := prefixes[p]; to != "" {
			return []string{to + "-" + n}
		}
		return nil
	}
	if !IsNumber(ref) {
		return nil
	}
	var out []string
	for now := range OldPrefixes(prefixes, bare) {
		out = append(out, now+"-"+ref)
	}
	sort.Strings(out)
	return out
}

// PrefixNumber splits an id shaped PREFIX-NUMBER (task-4, BACK-355.01,
// KB-TSK-0007) at the last dash: its prefix lower-cased
// (config.IsIDPrefix) and its number as written (digits, dots between).
func PrefixNumber(s string) (prefix, number string, ok bool) {
	i := strings.LastIndexByte(s, '-')
	if i <= 0 || !IsNumber(s[i+1:]) || !config.IsIDPrefix(s[:i]) {
		return "", "", false
	}
	return strings.ToLower(s[:i]), s[i+1:], true
}

// FileNumber is the number a file name starts with, as written, when a
// dash or underscore follows it ("0097" of 0097-storage-engine.md, "0013.1"
// of 0013.1-bridge.md): ADR tools name decisions so, and frontmatter
// refers to them by it (superseded_by: [0097, 0097.1]). "" when none.
func FileNumber(p string) string {
	stem := markdown.Stem(p)
	i := 0
	for i < len(stem) && (stem[i] >= '0' && stem[i] <= '9' || stem[i] == '.' && i > 0 && stem[i-1] != '.') {
		i++
	}
	if i == 0 || i == len(stem) || stem[i] != '-' && stem[i] != '_' || stem[i-1] == '.' {
		return ""
	}
	return stem[:i]
}

// RecordName is the name a decision record's file name starts with when
// the record has no id (adr-004 of adr-004-module-loading.md, as its
// neighbours link it: [ADR-002](adr-002-configuration.md)), lower-cased;
// "" for any other file name.
func RecordName(p string) string {
	stem := markdown.Stem(p)
	if !markdown.IsADRStem(stem) {
		return ""
	}
	if len(stem) < 5 || stem[3] != '-' {
		return "" // adr_12, adr0007: no reference names them (PrefixNumber wants a dash)
	}
	n := FileNumber(stem[4:] + "-") // 004, 0013.1
	if n == "" {
		return ""
	}
	return strings.ToLower(stem[:4+len(n)])
}

// nameOfFile is the name the file name gives a document without an id
// (RecordName, else headName); "" for one with an id, which names it.
func nameOfFile(d Identity) string {
	if d.ID != "" {
		return ""
	}
	if n := RecordName(d.Path); n != "" {
		return n
	}
	return headName(d.Path)
}

// FileID is the numbered id a file name carries, whatever the document's
// frontmatter says, lower-cased: a decision record's name (adr-004 of
// adr-004-module-loading.md), the id before " - " and a title (task-35 of
// Backlog.md's "task-35 - Fix-x.md"), or a stem that is an id (task-35.md);
// "" for any other name. canon id next counts it as taken: an archived
// file without frontmatter still holds its number.
func FileID(p string) string {
	if n := RecordName(p); n != "" {
		return n
	}
	if n := headName(p); n != "" {
		return n
	}
	if stem := markdown.Stem(p); stem != "" {
		if _, _, ok := PrefixNumber(stem); ok {
			return strings.ToLower(stem)
		}
	}
	return ""
}

// headName is the id a file name starts with before " - " and its title
// (Backlog.md: "task-97 - Fix-missing-edges.md", whose frontmatter, when
// it has one, says id: task-97), lower-cased; "" for any other name.
func headName(p string) string {
	head, _, ok := strings.Cut(markdown.Stem(p), " - ")
	if !ok {
		return ""
	}
	if _, _, ok := PrefixNumber(head); !ok {
		return ""
	}
	return strings.ToLower(head)
}

// IsNumber reports a reference that is only a number as a file name starts
// with: digits, and dots between them (0097, 0013.1).
func IsNumber(s string) bool {
	return s != "" && FileNumber(s+"-") == s
}

// MatchKeys are the names by which links can point at a document.
func MatchKeys(d Identity) []string {
	keys := []string{strings.ToLower(markdown.Stem(d.Path))}
	if keys[0] == "index" {
		keys = append(keys, folderKey) // the page of its folder (folderPlan)
	}
	if dir := path.Dir(d.Path); (keys[0] == "index" || keys[0] == folderKey) && dir != "." {
		keys = append(keys, strings.ToLower(path.Base(dir))) // a link to the folder without its slash (mdPlan)
		if n := FileNumber(path.Base(dir)); n != "" {
			keys = append(keys, n) // a ref that is its folder's number (AliasTerms' num:)
		}
	}
	if n := nameOfFile(d); n != "" {
		keys = append(keys, n) // a ref that is its file's name (refPlan's num:)
	}
	if n := FileNumber(d.Path); n != "" {
		keys = append(keys, n) // a ref that is its number (refPlan's match)
	}
	if d.ID != "" {
		keys = append(keys, strings.ToLower(d.ID))
	}
	if d.UID != "" {
		keys = append(keys, strings.ToLower(d.UID))
	}
	if t := TitleKey(d.Title); t != "" {
		keys = append(keys, t) // a ref that names it by its title (refPlan's title:)
	}
	return append(keys, d.oldNames()...) // a ref an old prefix writes (refPlan's was:)
}

// Identity is what names a document to a reference: its path, id, uid
// and title, and the old prefixes of the repository (OldPrefixes), which
// give a document of a renamed prefix its old names.
type Identity struct {
	Path, ID, UID string
	Title         string              // what TitleKey names it by
	Olds          map[string][]string // a prefix in use → the old prefixes that name its numbers (OldPrefixes)
}

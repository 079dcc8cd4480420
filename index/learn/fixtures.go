package learn

import (
	"fmt"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/config"
)

// Test fixtures are copies of documents a repository keeps for its tests
// (kubernetes/enhancements' pkg/repo/testdata holds KEPs whose ids are
// real KEPs'): each gives a duplicate id. A folder named testdata (Go's
// tools ignore it), fixtures or __fixtures__ holding documents whose ids
// documents elsewhere have is learned into fixtures:, with the evidence,
// and left out of check, ready and packs as templates are. A fixture
// folder whose documents are the repository's only ones, or whose ids
// nothing else has, is left as it is.

// fixtureNames are the names of folders that hold test fixtures.
var fixtureNames = map[string]bool{"testdata": true, "fixtures": true, "__fixtures__": true}

// fixtureDir is the folder named as one of fixtureNames nearest the root
// that holds the file at p ("" for none): pkg/repo/testdata.
func fixtureDir(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts[:len(parts)-1] {
		if fixtureNames[s] {
			return strings.Join(parts[:i+1], "/")
		}
	}
	return ""
}

// noteIdent notes a document's id and whether it lies in a fixture
// folder, for decideFixtures.
func (f *facts) noteIdent(path, ident string) {
	dir := fixtureDir(path)
	switch {
	case ident == "":
	case dir != "":
		if f.fixtureDocs == nil {
			f.fixtureDocs = map[string]int{}
		}
		f.fixtureDocs[dir]++
		f.fixtureIDs = append(f.fixtureIDs, fixtureCopy{path: path, id: ident})
	default:
		if f.idOutside == nil {
			f.idOutside = map[string]string{}
		}
		if _, ok := f.idOutside[ident]; !ok {
			f.idOutside[ident] = path
		}
	}
}

// fixtureCopy is a document in a fixture folder with an id, and a
// document outside every fixture folder that has it too ("" for none).
type fixtureCopy struct{ path, id, other string }

// decideFixtures writes the fixture copies found: a fixture folder where
// two documents or more have ids, each a copy, as one glob
// (pkg/repo/testdata/**), each other copy by its path.
func decideFixtures(f *facts, r *Result) {
	byDir := map[string][]fixtureCopy{}
	for _, c := range f.fixtureIDs {
		if c.other = f.idOutside[c.id]; c.other != "" {
			dir := fixtureDir(c.path)
			byDir[dir] = append(byDir[dir], c)
		}
	}
	if len(byDir) == 0 {
		return
	}
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	var globs, why []string
	for _, d := range dirs {
		cs := byDir[d]
		sort.Slice(cs, func(i, j int) bool { return cs[i].path < cs[j].path })
		var ids []string
		for _, c := range cs {
			ids = append(ids, c.id+" as "+c.other)
		}
		if len(cs) >= 2 && len(cs) == f.fixtureDocs[d] {
			globs = append(globs, d+"/**")
			why = append(why, fmt.Sprintf("%s/** (its %d documents with an id copy documents kept elsewhere: %s)", d, len(cs), clip(ids, 3)))
			continue
		}
		for i, c := range cs {
			globs = append(globs, c.path)
			why = append(why, fmt.Sprintf("%s (%s)", c.path, ids[i]))
		}
	}
	if len(globs) > config.MaxTemplates {
		globs, why = globs[:config.MaxTemplates], why[:config.MaxTemplates]
	}
	r.Learned.Fixtures = globs
	r.Evidence["fixtures"] = "test fixtures that copy documents kept elsewhere, in folders named testdata (which Go's tools ignore), fixtures or __fixtures__, left out of canon check, ready and context packs: " + strings.Join(why, "; ")
}

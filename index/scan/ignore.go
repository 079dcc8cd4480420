package scan

import (
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignorePattern is one line of a .gitignore (or info/exclude, or a
// configured exclude) as go-git's gitignore.ParsePattern reads it, kept
// with go-git's own Pattern: the fields let a folder's rules be worked out
// once (folderRules), and go-git's Pattern still matches folders and
// whatever the rules leave to it.
type ignorePattern struct {
	gg        gitignore.Pattern
	domain    []string // the folder of the file the line is in
	parts     []string // the pattern split at "/"
	inclusion bool     // a "!" line
	dirOnly   bool     // a trailing "/"
	isGlob    bool     // a "/" inside: matched component by component
}

// parsePattern reads a line as gitignore.ParsePattern does (the same
// steps, in the same order), keeping go-git's Pattern beside.
func parsePattern(line string, domain []string) ignorePattern {
	p := ignorePattern{gg: gitignore.ParsePattern(line, domain), domain: append([]string(nil), domain...)}
	if strings.HasPrefix(line, "!") {
		p.inclusion = true
		line = line[1:]
	}
	if !strings.HasSuffix(line, "\\ ") {
		line = strings.TrimRight(line, " ")
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly = true
		line = line[:len(line)-1]
	}
	p.isGlob = strings.Contains(line, "/")
	p.parts = strings.Split(line, "/")
	return p
}

// nameRule is one pattern as it applies to the files of one folder: their
// names matched against glob, or, for a pattern with "**", go-git's own
// match of the whole path.
type nameRule struct {
	glob    string
	whole   gitignore.Pattern
	exclude bool
}

// folderRules say which files directly in one folder are ignored, by
// name: the patterns that can tell something about such a file, highest
// priority first, and what holds when none matches (base: a pattern
// that matches the folder's own path matches every file in it).
// folderRules(d).ignored(name) is gitignore.NewMatcher(patterns).Match
// of d/name as a file, with one filepath.Match per rule instead of one per
// pattern and path component (TestFolderRulesMatchGoGit holds them to it).
type folderRules struct {
	rules []nameRule
	base  bool
}

// compileFolder works out the rules for the files in folder dir (its
// components; none for the root) from patterns in increasing priority.
func compileFolder(patterns []ignorePattern, dir []string) *folderRules {
	fr := &folderRules{}
	for i := len(patterns) - 1; i >= 0; i-- {
		p := patterns[i]
		if len(dir)+1 <= len(p.domain) || !hasPrefix(dir, p.domain) {
			continue // go-git: NoMatch outside its folder
		}
		rel := dir[len(p.domain):]
		var verdict, constant bool
		if p.isGlob {
			verdict, constant = globRule(fr, p, rel)
		} else {
			verdict, constant = simpleRule(fr, p, rel)
		}
		if constant {
			fr.base = verdict
			return fr
		}
	}
	return fr
}

// simpleRule is go-git's simpleNameMatch of a pattern without "/" on the
// path rel+[name]: a folder component that matches decides for every
// file; else the name is matched, unless the pattern is for folders only.
func simpleRule(fr *folderRules, p ignorePattern, rel []string) (verdict, constant bool) {
	for _, c := range rel {
		ok, err := filepath.Match(p.parts[0], c)
		if err != nil {
			return false, false // go-git: a bad pattern matches nothing
		}
		if ok {
			return !p.inclusion, true
		}
	}
	if !p.dirOnly {
		fr.rules = append(fr.rules, nameRule{glob: p.parts[0], exclude: !p.inclusion})
	}
	return false, false
}

// globRule is go-git's globMatch of a pattern with "/" on rel+[name].
// Without "**" its non-empty parts match the path's first components one
// to one, and a match of fewer parts than the path has matches what is
// under it: so the folder's components decide, or the last part is
// matched against the name, or nothing can match. With "**" go-git
// matches the whole path.
func globRule(fr *folderRules, p ignorePattern, rel []string) (verdict, constant bool) {
	var parts []string
	for _, q := range p.parts {
		if strings.Contains(q, "**") {
			fr.rules = append(fr.rules, nameRule{whole: p.gg, exclude: !p.inclusion})
			return false, false
		}
		if q != "" {
			parts = append(parts, q)
		}
	}
	if len(parts) == 0 || len(parts) > len(rel)+1 {
		return false, false
	}
	n := min(len(parts), len(rel))
	for i := range n {
		if ok, err := filepath.Match(parts[i], rel[i]); err != nil || !ok {
			return false, false
		}
	}
	if len(parts) <= len(rel) {
		return !p.inclusion, true // matches the folder, so what is under it
	}
	if !p.dirOnly { // a dir-only pattern matching the name itself: not a file
		fr.rules = append(fr.rules, nameRule{glob: parts[len(rel)], exclude: !p.inclusion})
	}
	return false, false
}

// ignored reports whether the file name in folder dir (slash separated,
// "" for the root) is ignored by the patterns the rules came from.
func (fr *folderRules) ignored(dir, name string) bool {
	var whole []string
	for _, r := range fr.rules {
		if r.whole != nil {
			if whole == nil {
				whole = splitPath(dir, name)
			}
			switch r.whole.Match(whole, false) {
			case gitignore.Exclude:
				return true
			case gitignore.Include:
				return false
			}
			continue
		}
		if ok, err := filepath.Match(r.glob, name); err == nil && ok {
			return r.exclude
		}
	}
	return fr.base
}

func splitPath(dir, name string) []string {
	if dir == "" {
		return []string{name}
	}
	return append(strings.Split(dir, "/"), name)
}

func hasPrefix(path, prefix []string) bool {
	for i, e := range prefix {
		if path[i] != e {
			return false
		}
	}
	return true
}

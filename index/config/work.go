package config

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	yaml "go.yaml.in/yaml/v4"
)

// Work says what a team counts as work: what canon ready and canon blocked
// list, in which order, and which folders hold finished or archived items
// (whose ids a tool such as Backlog.md hands out again on purpose).
type Work struct {
	// Kinds are the kinds listed as work. Empty: every kind but the
	// NotWorkKinds (decisions, epics, indexes, groups).
	Kinds []string `json:"kinds"`
	// Priorities is the priority scale, most urgent first, matched without
	// case. A priority not on it sorts after those that are, in text
	// order; an item with none sorts last.
	Priorities []string `json:"priorities"`
	// Archive holds gitignore-style patterns of folders whose documents
	// are archived or completed: they are not work, and their ids may be
	// reused by a live document.
	Archive []string `json:"archive"`
	// Limit is how many items ready and blocked list by default (0: all);
	// the rest are counted.
	Limit int `json:"limit"`

	archive gitignore.Matcher
	dirs    *sync.Map // folder → whether it is inside an archive folder
}

// NotWorkKinds are the kinds that are not work items unless work.kinds
// names them: decisions, epics, indexes and groups.
var NotWorkKinds = []string{"adr", "epic", "index", "group"}

// DefaultWork is what a team reads as work when the configuration says
// nothing: the priority scales of Kano (P0…P4 sort as text) and
// Backlog.md, and the archive folders of Backlog.md and of most
// hand-kept backlogs.
func DefaultWork() Work {
	w := Work{
		Priorities: []string{"critical", "urgent", "highest", "high", "medium", "normal", "low", "lowest", "trivial"},
		Archive:    []string{"archive/", "archived/", "_archive/", "backlog/completed/"},
		Limit:      20,
	}
	w.compile()
	return w
}

func (w *Work) compile() {
	ps := make([]gitignore.Pattern, 0, len(w.Archive))
	for _, p := range w.Archive {
		ps = append(ps, gitignore.ParsePattern(p, nil))
	}
	w.archive = gitignore.NewMatcher(ps)
	w.dirs = &sync.Map{}
}

type workFile struct {
	Kinds      *list `yaml:"kinds"`
	Priorities *list `yaml:"priorities"`
	Archive    *list `yaml:"archive"`
	Limit      *int  `yaml:"limit"`
}

func (w *Work) merge(n *yaml.Node) error {
	var f workFile
	if err := n.Load(&f, yaml.WithKnownFields()); err != nil {
		return err
	}
	if f.Kinds != nil {
		w.Kinds = nil
		for _, k := range *f.Kinds {
			if k = strings.TrimSpace(k); k == "" {
				return fmt.Errorf("work.kinds has an empty entry; name kinds such as task or bug")
			}
			w.Kinds = append(w.Kinds, strings.ToLower(k))
		}
	}
	if f.Priorities != nil {
		w.Priorities = *f.Priorities
	}
	if f.Archive != nil {
		w.Archive = nil
		for _, p := range *f.Archive {
			if p = strings.TrimSpace(p); p == "" || strings.HasPrefix(p, "#") {
				return fmt.Errorf("work.archive has an empty entry; write folders such as backlog/archive/")
			}
			if err := checkPrintable("work.archive", p); err != nil {
				return err
			}
			w.Archive = append(w.Archive, p)
		}
	}
	if f.Limit != nil {
		if *f.Limit < 0 {
			return fmt.Errorf("work.limit is %d; write 0 for no limit or a positive number", *f.Limit)
		}
		w.Limit = *f.Limit
	}
	w.compile()
	return nil
}

// Archived reports whether the repo-relative, slash-separated path is
// inside an archive folder.
func (w *Work) Archived(path string) bool {
	if w.archive == nil || path == "" {
		return false
	}
	parts := strings.Split(path, "/")
	if len(parts) > 1 && w.archivedDir(parts[:len(parts)-1]) {
		return true
	}
	return w.archive.Match(parts, false)
}

// archivedDir reports whether a folder is an archive folder or inside one;
// a folder is asked once (ready asks for every document).
func (w *Work) archivedDir(dir []string) bool {
	key := strings.Join(dir, "/")
	if v, ok := w.dirs.Load(key); ok {
		return v.(bool)
	}
	// A folder pattern ("archive/") matches a folder, so ask for the
	// folder itself and, through the cache, every folder above it.
	in := w.archive.Match(dir, true) || len(dir) > 1 && w.archivedDir(dir[:len(dir)-1])
	w.dirs.Store(key, in)
	return in
}

// IsWork reports whether a document of this kind is a work item: a kind
// work.kinds names, by default any kind but NotWorkKinds ("doc", the kind
// of a document with no type, included: Backlog.md's tasks have none).
func (w *Work) IsWork(kind string) bool {
	if len(w.Kinds) > 0 {
		return inFold(w.Kinds, kind)
	}
	return !inFold(NotWorkKinds, kind)
}

// PriorityLess orders two priorities: on the scale by its order, then
// those not on it in text order, then none.
func (w *Work) PriorityLess(a, b string) bool {
	if (a == "") != (b == "") {
		return b == ""
	}
	ra, rb := w.priorityRank(a), w.priorityRank(b)
	if ra != rb {
		return ra < rb
	}
	return a < b
}

func (w *Work) priorityRank(p string) int {
	for i, s := range w.Priorities {
		if strings.EqualFold(s, p) {
			return i
		}
	}
	return len(w.Priorities)
}

// SortPriorities sorts priority values by PriorityLess (for listing the
// scale a repository uses).
func (w *Work) SortPriorities(ps []string) {
	sort.SliceStable(ps, func(i, j int) bool { return w.PriorityLess(ps[i], ps[j]) })
}

package watch

import (
	"sort"
	"time"

	"github.com/canon-md/canon/index/safepath"
)

// pending is what the events since the last sync ask for, coalesced: a
// document saved fifty times, or written to a temporary file and renamed
// over, or removed and created again, is one path looked at once, and the
// look (a stat, then a read) sees where it ended up.
type pending struct {
	files  map[string]bool // repo-relative document paths
	dirs   map[string]bool // folders that appeared or went: everything under them
	git    bool            // HEAD, a branch ref or a rebase's state moved
	full   string          // why the whole tree must be reconciled ("" when not)
	config bool            // .canon/config.yaml changed
	events int             // raw events folded in
	// cookies are the files commands dropped in the git folder to ask
	// whether the index holds every edit made before (gitsync.CookiePrefix):
	// each is removed once a sync of everything folded in before it is done.
	cookies []string

	first, last time.Time // the first and the latest event folded in
}

func newPending() *pending {
	return &pending{files: map[string]bool{}, dirs: map[string]bool{}}
}

func (p *pending) empty() bool {
	return len(p.files) == 0 && len(p.dirs) == 0 && !p.git && p.full == "" && !p.config
}

// note counts an event at now.
func (p *pending) note(now time.Time) {
	if p.first.IsZero() {
		p.first = now
	}
	p.last = now
	p.events++
}

func (p *pending) addFile(rel string, now time.Time) {
	p.files[rel] = true
	p.note(now)
}

func (p *pending) addDir(rel string, now time.Time) {
	p.dirs[rel] = true
	p.note(now)
}

func (p *pending) markGit(now time.Time) {
	p.git = true
	p.note(now)
}

// markFull asks for a full reconcile; the first reason given is kept.
func (p *pending) markFull(reason string, now time.Time) {
	if p.full == "" {
		p.full = reason
	}
	p.note(now)
}

// requestFull asks for a full reconcile that no event asked for (the
// periodic rescan, the first sync).
func (p *pending) requestFull(reason string, now time.Time) {
	p.markFull(reason, now)
	p.events--
}

func (p *pending) markConfig(now time.Time) {
	p.config = true
	p.note(now)
}

// merge folds q (a sync that failed and is to be retried) back in.
func (p *pending) merge(q *pending) {
	for f := range q.files {
		p.files[f] = true
	}
	for d := range q.dirs {
		p.dirs[d] = true
	}
	p.git = p.git || q.git
	p.config = p.config || q.config
	p.cookies = append(p.cookies, q.cookies...)
	if p.full == "" {
		p.full = q.full
	}
	p.events += q.events
	if !q.first.IsZero() && (p.first.IsZero() || q.first.Before(p.first)) {
		p.first = q.first
	}
	if q.last.After(p.last) {
		p.last = q.last
	}
}

// trigger names what a sync of p answers, for its report line.
func (p *pending) trigger() string {
	switch {
	case p.config:
		return TriggerConfig
	case p.full != "":
		return p.full
	case len(p.files) > 0 || len(p.dirs) > 0:
		if p.git {
			return TriggerGit
		}
		return TriggerEdit
	case p.git:
		return TriggerGit
	}
	return TriggerEdit
}

// sortedFiles lists the file paths in order.
func (p *pending) sortedFiles() []string {
	out := make([]string, 0, len(p.files))
	for f := range p.files {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// outermostDirs lists the folders, leaving out any inside another one
// listed: everything under a folder is looked at anyway.
func (p *pending) outermostDirs() []string {
	all := make([]string, 0, len(p.dirs))
	for d := range p.dirs {
		all = append(all, d)
	}
	sort.Strings(all)
	var out []string
	for _, d := range all {
		if len(out) > 0 && safepath.Within(out[len(out)-1], d) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// due decides the debounce: a sync starts once the tree has been quiet for
// quiet since the latest event, or once maxDelay has passed since the first
// one, so a steady stream of writes still syncs every maxDelay. When it is
// not due yet, wait says how long until it may be.
func due(first, last, now time.Time, quiet, maxDelay time.Duration) (ready bool, wait time.Duration) {
	if first.IsZero() {
		return false, 0
	}
	quietAt := last.Add(quiet)
	capAt := first.Add(maxDelay)
	at := quietAt
	if capAt.Before(at) {
		at = capAt
	}
	if !now.Before(at) {
		return true, 0
	}
	return false, at.Sub(now)
}

package gitsync

import (
	"path"
	"sync"
)

// diffAhead works out, on a second core, the tree diffs a call of
// Overlays will ask for next: each ref's diff from its merge base or its
// anchor, known as soon as the merge bases and the trunks' anchors are.
// The call's own goroutine meanwhile reads blobs, parses documents and
// diffs the trunks' steps. A diff is a function of its two commits, so
// whoever does it first gives the answer: the worker, or the call itself
// when it gets there before the worker started on it. The worker has
// objects of its own and never touches the session's scope (its ignore
// rules keep caches): it keeps Markdown files of the configured roots
// (Session.rootFilter), and the call keeps what the whole filter would
// have let through.
// After a checkout of a branch 300 commits back on rust-lang/rfcs with
// 200 remote refs, those diffs were a quarter of the first ready's CPU.
type diffAhead struct {
	objs   *Objects
	filter Filter // Session.rootFilter
	mu     sync.Mutex
	queue  []*aheadDiff
	by     map[[2]string]*aheadDiff
	wake   chan struct{}
	stop   chan struct{}
	done   chan struct{}
}

type aheadDiff struct {
	from, to string
	started  bool
	done     chan struct{}
	changes  []TreeChange
	err      error
}

func newDiffAhead(r *Repo, filter Filter) *diffAhead {
	d := &diffAhead{objs: OpenObjects(r), filter: filter, by: map[[2]string]*aheadDiff{}, wake: make(chan struct{}, 1),
		stop: make(chan struct{}), done: make(chan struct{})}
	go d.work()
	return d
}

// want queues diffs from[i] → to[i] the call will ask for.
func (d *diffAhead) want(from, to string) {
	if d == nil {
		return
	}
	d.mu.Lock()
	k := [2]string{from, to}
	if d.by[k] == nil {
		a := &aheadDiff{from: from, to: to, done: make(chan struct{})}
		d.by[k] = a
		d.queue = append(d.queue, a)
	}
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// take is the worker's diff from → to, waited for, if it started on it;
// else nil, and the worker will not start on it: the caller diffs.
func (d *diffAhead) take(from, to string) *aheadDiff {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	a := d.by[[2]string{from, to}]
	if a == nil || !a.started {
		if a != nil {
			a.started = true // the caller's now
			delete(d.by, [2]string{from, to})
		}
		d.mu.Unlock()
		return nil
	}
	delete(d.by, [2]string{from, to}) // asked once: a second ask diffs again
	d.mu.Unlock()
	<-a.done
	return a
}

func (d *diffAhead) work() {
	defer close(d.done)
	for {
		d.mu.Lock()
		var a *aheadDiff
		for len(d.queue) > 0 && a == nil {
			if d.queue[0].started {
				d.queue = d.queue[1:]
				continue
			}
			a, d.queue = d.queue[0], d.queue[1:]
			a.started = true
		}
		d.mu.Unlock()
		if a != nil {
			a.changes, a.err = d.diff(a.from, a.to)
			close(a.done)
			continue
		}
		select {
		case <-d.stop:
			return
		case <-d.wake:
		}
	}
}

func (d *diffAhead) diff(from, to string) ([]TreeChange, error) {
	a, err := d.objs.CommitTree(from)
	if err != nil {
		return nil, err
	}
	b, err := d.objs.CommitTree(to)
	if err != nil {
		return nil, err
	}
	return d.objs.DiffTrees(a, b, d.filter)
}

// close stops the worker (after the diff it is on) and releases its
// objects.
func (d *diffAhead) close() {
	if d == nil {
		return
	}
	close(d.stop)
	<-d.done
	d.objs.Close()
}

// filtered keeps the changes the filter lets through, as DiffTrees with
// it would have: every folder above the file, then the file.
func filtered(changes []TreeChange, f Filter) []TreeChange {
	dirs := map[string]bool{}
	dirOK := func(dir string) bool {
		if dir == "." || f.Dir == nil {
			return true
		}
		ok, seen := dirs[dir]
		if !seen {
			ok = dirOKUp(dir, f, dirs)
			dirs[dir] = ok
		}
		return ok
	}
	var out []TreeChange
	for _, c := range changes {
		if dirOK(path.Dir(c.Path)) && (f.File == nil || f.File(c.Path)) {
			out = append(out, c)
		}
	}
	return out
}

// dirOKUp asks the filter about dir once its parent passed, as a walk
// descends.
func dirOKUp(dir string, f Filter, dirs map[string]bool) bool {
	if parent := path.Dir(dir); parent != "." {
		ok, seen := dirs[parent]
		if !seen {
			ok = dirOKUp(parent, f, dirs)
			dirs[parent] = ok
		}
		if !ok {
			return false
		}
	}
	return f.Dir(dir)
}

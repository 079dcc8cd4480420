package gitsync

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/scan"
)

// readAhead reads and parses the files a tree diff reports while the diff
// is still walking: on a branch switch the walk keeps one core busy with
// inflating trees, and the other parses what it has found so far. What it
// loads is only a head start: planFor decides what each change is (a
// rename is not read at all) and loads whatever is not here.
type readAhead struct {
	ld    *index.Loader
	scope *scan.Scope
	queue chan string
	seen  map[string]bool // queued paths; only add touches it
	limit int             // how many paths add queues in all
	stop  atomic.Bool
	wg    sync.WaitGroup
	mu    sync.Mutex
	done  map[string]*index.Loaded
}

// startReadAhead starts one worker per core but the one the walk runs on.
func startReadAhead(ld *index.Loader, scope *scan.Scope, limit int) *readAhead {
	r := &readAhead{ld: ld, scope: scope, limit: limit, queue: make(chan string, 4096), seen: map[string]bool{},
		done: map[string]*index.Loaded{}}
	workers := max(runtime.GOMAXPROCS(0)-1, 1)
	for range workers {
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			for p := range r.queue {
				if r.stop.Load() {
					continue
				}
				fi, ok := r.scope.Stat(p)
				if !ok {
					continue
				}
				if l := r.ld.Load(fi); l != nil {
					r.mu.Lock()
					r.done[p] = l
					r.mu.Unlock()
				}
			}
		}()
	}
	return r
}

// add queues a change whose file exists in the new tree, once, and no more
// than one transaction's worth (limit: the store's SliceFiles) in all. It
// never waits: a full queue only means loadInto reads that file itself.
func (r *readAhead) add(c TreeChange) {
	if c.To == "" || r.seen[c.Path] || len(r.seen) >= r.limit || !scan.IsMarkdown(c.Path) { // a sidecar: its README is read
		return
	}
	select {
	case r.queue <- c.Path:
		r.seen[c.Path] = true
	default:
	}
}

// finish waits for the workers and returns what they loaded, by path.
func (r *readAhead) finish() map[string]*index.Loaded {
	close(r.queue)
	r.wg.Wait()
	return r.done
}

// abandon stops the workers without waiting for the rest of the queue: the
// diff failed and what they would load is of no use.
func (r *readAhead) abandon() {
	r.stop.Store(true)
	r.finish()
}

package watch

import (
	"os"
)

// The watcher's health: whether it hears every edit (every folder
// watched, its events flowing), and the answers to the commands' cookies
// it gives only then.

// missed reports a folder it could not watch since the last resync.
func (w *Watcher) missed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.tree.missed
}

// lost marks the events as no longer to be trusted (the watches closed, or
// an error fsnotify could not say more of): a listening server no longer
// vouches.
func (w *Watcher) lost() {
	w.mu.Lock()
	w.broken = true
	w.mu.Unlock()
}

// answer tells the commands that dropped cookies that every edit made
// before them is in the index: each cookie is removed (the command waits
// for that, gitsync.Session.Current). The status counts them afterwards,
// so that no command waits for the write.
func (w *Watcher) answer(cookies []string) {
	w.mu.Lock()
	at, healthy, why := w.askedAt, !w.broken && !w.tree.missed, ""
	switch {
	case w.tree.missed:
		why = "a folder is not watched (the system's limit of watches)"
	case w.broken:
		why = "its events stopped"
	}
	w.mu.Unlock()
	if why != w.status.NotVouching {
		w.status.NotVouching = why
		w.writeStatus()
	}
	if len(cookies) == 0 {
		return
	}
	if !healthy {
		// A folder is not watched (the system's limit) or the events
		// stopped: an answer would vouch for edits it may not have heard.
		// The cookies time out and the commands walk.
		return
	}
	answer(cookies)
	w.status.Answered += len(cookies)
	w.status.LastAskedAt = timePtr(at)
	w.writeStatus()
}

func answer(cookies []string) {
	for _, c := range cookies {
		_ = os.Remove(c) // gone already: the command stopped waiting
	}
}

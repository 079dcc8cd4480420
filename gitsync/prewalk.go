package gitsync

import (
	"errors"
	"fmt"

	"github.com/canon-md/canon/gitsync/gitfile"
	"github.com/go-git/go-git/v5/plumbing"
)

// A hook knows which commit the index most likely reflects before it has
// opened the index: the previous HEAD git passes to post-checkout, the new
// commit's parent for post-commit. A Prewalk diffs that commit with HEAD on
// the second core while the session opens the index and reads where it
// stands (a cold SQLite open takes about as long as the walk of a large
// folder); the catch-up takes its result only when the indexed commit is
// the one guessed, and walks itself otherwise (ADR-0021).
type Prewalk struct {
	known   chan struct{} // closed when from and to are set
	done    chan struct{} // closed when the walk has ended
	from    string
	to      string
	changes []TreeChange
	err     error
}

// StartPrewalk diffs from and HEAD in the background; with parentOfHead,
// from is HEAD's first parent ("" for a root commit). The walk is not
// filtered: the catch-up filters what it takes. It reads at most maxTrees
// trees (0: the session's default budget) before it gives up with
// ErrLargeDiff.
func StartPrewalk(r *Repo, from string, parentOfHead bool, maxTrees int) *Prewalk {
	if maxTrees <= 0 {
		maxTrees = defaultWalkTrees
	}
	p := &Prewalk{known: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		err := p.run(r, from, parentOfHead, maxTrees)
		if err != nil {
			p.changes, p.err = nil, err
		}
	}()
	return p
}

func (p *Prewalk) run(r *Repo, from string, parentOfHead bool, maxTrees int) error {
	known := false
	defer func() {
		if !known {
			close(p.known)
		}
	}()
	if r.ObjectFormat() != "sha1" {
		return errors.New("not a SHA-1 repository")
	}
	head, _, err := r.Head()
	if err != nil {
		return err
	}
	objs := OpenObjects(r)
	defer objs.Close()
	objs.MaxTrees = maxTrees
	if parentOfHead {
		if from, err = objs.firstParent(head); err != nil {
			return err
		}
	}
	p.from, p.to = from, head
	close(p.known)
	known = true
	fromTree, err := objs.CommitTree(from)
	if err != nil {
		return err
	}
	toTree, err := objs.CommitTree(head)
	if err != nil {
		return err
	}
	return objs.DiffTreesEach(fromTree, toTree, Filter{}, func(c TreeChange) { p.changes = append(p.changes, c) })
}

// result returns the walk's changes and error if it diffed from and to
// (matched). It waits for the walk only when it is the one wanted.
func (p *Prewalk) result(from, to string) (changes []TreeChange, matched bool, err error) {
	<-p.known
	if p.from != from || p.to != to {
		return nil, false, nil
	}
	<-p.done
	return p.changes, true, p.err
}

// firstParent reads the first parent of a commit ("" for a root commit).
func (o *Objects) firstParent(commit string) (string, error) {
	t, data, err := o.raw(plumbing.NewHash(commit))
	if err == nil && t != plumbing.CommitObject {
		err = plumbing.ErrObjectNotFound
	}
	if err != nil {
		return "", fmt.Errorf("read commit %s: %w", short(commit), err)
	}
	if c := gitfile.ParseCommit(data); len(c.Parents) > 0 {
		return c.Parents[0].String(), nil
	}
	return "", nil
}

// UsePrewalk gives the session a Prewalk its next catch-up may take.
func (s *Session) UsePrewalk(p *Prewalk) { s.prewalk = p }

// takePrewalk hands found the changes of the session's Prewalk, filtered as
// a walk of its own would be, if it diffed from and head (took); err is
// the prewalk's error then, such as ErrLargeDiff.
func (s *Session) takePrewalk(from, head string, found func(TreeChange)) (changes []TreeChange, took bool, err error) {
	p := s.prewalk
	s.prewalk = nil
	if p == nil {
		return nil, false, nil
	}
	all, matched, err := p.result(from, head)
	if !matched || err != nil {
		return nil, matched, err
	}
	f := s.filter()
	for _, c := range all {
		if keepPath(c.Path, f) {
			changes = append(changes, c)
			found(c)
		}
	}
	return changes, true, nil
}

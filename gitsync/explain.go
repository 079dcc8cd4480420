package gitsync

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
)

// Explain turns the conditions every front end meets into one sentence
// with the fix: not a repository, a locked, damaged or unwritable index, a
// configuration error, an interruption, a bad search. SQLite's errors are
// classified first (index.Explain), with the index's path when known.
// Anything else is its own text.
func Explain(err error, indexPath string) string {
	var le *index.LockedError
	var ce *config.Error
	var pe *fs.PathError
	err = index.Explain(err, indexPath)
	switch {
	case errors.Is(err, ErrNotRepo):
		return "not inside a git working tree; run canon inside a repository (or git init first)"
	case errors.As(err, &le):
		return le.Error() + "; wait for it to finish, or stop it, then retry"
	case errors.As(err, &ce):
		return "the configuration has an error: " + ce.Error() + "; fix the file and retry"
	case errors.Is(err, context.Canceled):
		return "interrupted; nothing was changed by the unfinished step"
	case errors.Is(err, index.ErrBadQuery):
		return err.Error() + "; search for words, \"a phrase\" or a prefix*"
	case errors.As(err, &pe) && errors.Is(err, fs.ErrPermission) && !errors.Is(err, index.ErrDamaged):
		return fmt.Sprintf("canon may not %s %s (permission denied): check who owns it (ls -ld %s) and run canon as that user, or fix its permissions", pe.Op, pe.Path, pe.Path)
	}
	return err.Error()
}

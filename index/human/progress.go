package human

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress returns what gitsync.Session.Progress wants: a bar with
// documents/s and the time left on w, for builds of 500 files or more,
// when w is a terminal. Hooks and pipes get nil: they stay quiet.
func Progress(w io.Writer) func(total int) (step func(done int), finish func()) {
	if f, ok := w.(*os.File); !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return func(total int) (func(int), func()) {
		if total < 500 {
			return func(int) {}, func() {}
		}
		bar := progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("indexing"),
			progressbar.OptionSetItsString("docs"),
			progressbar.OptionShowIts(),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
		return func(done int) { _ = bar.Set(done) }, func() { _ = bar.Finish() }
	}
}

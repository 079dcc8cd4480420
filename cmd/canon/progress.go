package main

import (
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress draws a bar with documents/s and the time left on stderr. It is
// only used on a terminal; hooks and pipes stay quiet.
func (e *env) progress(total int) (func(int), func()) {
	if total < 500 {
		return func(int) {}, func() {}
	}
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(e.stderr),
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

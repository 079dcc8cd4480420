package scan

import (
	"context"
	"sync"
)

// InOrder loads files with load on workers goroutines and hands what each
// gives to fn in the order given, so what is done next does not depend on
// scheduling; a nil (a file that vanished) is passed over. It stops at
// the first error fn returns or when ctx is done. Workers run at most a
// window of files ahead of fn, which bounds memory.
func InOrder[T any](ctx context.Context, files []FileInfo, workers int, load func(FileInfo) *T, fn func(*T) error) error {
	if workers < 1 {
		workers = 1
	}
	if workers > len(files) {
		workers = len(files)
	}
	if len(files) <= 1 {
		for _, fi := range files {
			if err := ctx.Err(); err != nil {
				return err
			}
			if ld := load(fi); ld != nil {
				if err := fn(ld); err != nil {
					return err
				}
			}
		}
		return nil
	}
	// A window of slots bounds memory: workers run at most window files
	// ahead of the consumer.
	const window = 512
	type slot struct {
		ld   *T
		done chan struct{}
	}
	slots := make([]slot, len(files))
	for i := range slots {
		slots[i].done = make(chan struct{})
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int)
	tokens := make(chan struct{}, window)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				slots[i].ld = load(files[i])
				close(slots[i].done)
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range files {
			select {
			case tokens <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	var err error
	for i := range files {
		select {
		case <-slots[i].done:
		case <-ctx.Done():
			err = ctx.Err()
		}
		if err != nil {
			break
		}
		ld := slots[i].ld
		slots[i].ld = nil
		<-tokens
		if ld != nil {
			if err = fn(ld); err != nil {
				break
			}
		}
	}
	// The feeder watches ctx, so cancelling lets it close next and the
	// workers finish what they hold.
	cancel()
	wg.Wait()
	return err
}

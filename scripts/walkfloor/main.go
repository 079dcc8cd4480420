//go:build linux && (amd64 || arm64)

// Command walkfloor is the floor of a stat walk, for benchmarks: it reads
// every folder under a root with getdents64 and lstats every .md file in
// it relative to the open folder (fstatat), and does nothing else (package
// floor). It prints how many files it stat'ed. ADR-0081 and
// docs/benchmarks.md compare canon's walk with it.
//
//	go run ./scripts/walkfloor DIR
package main

import (
	"fmt"
	"os"

	"github.com/canon-md/canon/scripts/walkfloor/floor"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: walkfloor DIR")
		os.Exit(2)
	}
	n, err := floor.Walk(os.Args[1], make([]byte, 1<<16))
	if err != nil {
		fmt.Fprintln(os.Stderr, "walkfloor:", err)
		os.Exit(1)
	}
	fmt.Println(n)
}

// Command examplegen writes results/example-qwen3-8b-l40s, the example study
// that shows every kind of data a study can hold: repeats, a load sweep, a
// latency budget, a price, an engine's history and accuracy results.
//
// Its logs are simulated, not measured: a small model of a serving engine
// (sim.go) printed as vllm bench serve prints its results. The study is of
// kind "example", so every page it has says so. The output is the same on
// every run, and a test keeps the committed files equal to it.
//
// Usage:
//
//	go run ./cmd/examplegen [-results results]
//
// It writes only the files of the example study, and never deletes any.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "examplegen:", err)
		os.Exit(1)
	}
}

func run(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("examplegen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	results := fs.String("results", "results", "the results folder to write the example study into")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return errors.New("no arguments expected; see -h")
	}
	files := generate()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := filepath.Join(*results, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "wrote %d files of %s under %s\n", len(names), studyID, *results)
	return nil
}

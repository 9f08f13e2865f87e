// Package benchtree makes large project trees for benchmarks: it replicates
// the studies of a results/ folder, and their prose in content/, under new
// ids, so that a build of the copy renders complete pages.
//
// It only copies files; it knows nothing of their formats.
package benchtree

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"gopkg.in/yaml.v3"
)

// Make writes n studies into dstResults (and their prose into dstContent,
// when srcContent is not empty), replicating the studies of srcResults in
// turn: copy i of study s is named s-NNNN, and copying its YAML files
// (results/prices.yaml). Both destinations are created and
// must not hold studies yet. Example studies (kind: example) are left out:
// the tree is made of reports of real measurements, whose size benchmarks
// have always been measured on.
func Make(srcResults, srcContent, dstResults, dstContent string, n int) ([]string, error) {
	entries, err := os.ReadDir(srcResults)
	if err != nil {
		return nil, err
	}
	var studies []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.IsDir() && name[0] != '.' && !example(filepath.Join(srcResults, name)):
			studies = append(studies, name)
		case e.Type().IsRegular() && filepath.Ext(name) == ".yaml":
			// Files of the whole folder, such as the shared prices.
			data, err := os.ReadFile(filepath.Join(srcResults, name))
			if err != nil {
				return nil, err
			}
			if err := write(filepath.Join(dstResults, name), data); err != nil {
				return nil, err
			}
		}
	}
	if len(studies) == 0 {
		return nil, fmt.Errorf("benchtree: no study in %s", srcResults)
	}
	sort.Strings(studies)
	var langs []string
	if srcContent != "" {
		ls, err := os.ReadDir(srcContent)
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		for _, l := range ls {
			if l.IsDir() {
				langs = append(langs, l.Name())
			}
		}
	}
	ids := make([]string, 0, n)
	for i := range n {
		src := studies[i%len(studies)]
		id := fmt.Sprintf("%s-%04d", src, i/len(studies)+1)
		ids = append(ids, id)
		if err := copyTree(filepath.Join(srcResults, src), filepath.Join(dstResults, id)); err != nil {
			return nil, err
		}
		for _, l := range langs {
			data, err := os.ReadFile(filepath.Join(srcContent, l, src+".md"))
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if err := write(filepath.Join(dstContent, l, id+".md"), data); err != nil {
				return nil, err
			}
		}
	}
	return ids, nil
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return write(filepath.Join(dst, rel), data)
	})
}

func write(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o644)
}

// example reports whether the study in dir is of kind example.
func example(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "study.yaml"))
	if err != nil {
		return false
	}
	var head struct {
		Kind string `yaml:"kind"`
	}
	return yaml.Unmarshal(data, &head) == nil && head.Kind == "example"
}

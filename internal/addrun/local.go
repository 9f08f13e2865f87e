package addrun

import (
	"fmt"
	"path"
	"strings"

	"github.com/perflab/perflab/internal/study"
)

// checkIDs checks --study and --run against the loader's id grammar.
func checkIDs(o Options) error {
	if err := study.ValidID("study", o.Study); err != nil {
		return fmt.Errorf("--study %q is not a study id (%v), as the folder names in %s", o.Study, err, o.Results)
	}
	if err := study.ValidID("run", o.Run); err != nil {
		return fmt.Errorf("--run %q is not a run id (%v), e.g. vllm-fp8-tp2", o.Run, err)
	}
	return nil
}

// localName refuses a file name of the run folder that could leave it:
// whatever a merged study.yaml names a workload, perflab add writes only
// inside the new run folder. The loader refuses such ids first; this is
// the last guard before a file is created.
func localName(name string) error {
	bad := name == "" || path.Clean(name) != name || path.IsAbs(name) || name == ".." ||
		strings.HasPrefix(name, "../") || strings.ContainsAny(name, "\\\x00")
	for _, part := range strings.Split(name, "/") {
		bad = bad || len(part) > 255
	}
	if bad {
		return fmt.Errorf("refusing to write %q: a file of a run folder must stay inside it (nothing was added)", name)
	}
	return nil
}

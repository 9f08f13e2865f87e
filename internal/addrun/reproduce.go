package addrun

import (
	"fmt"

	"github.com/perflab/perflab/internal/study"
)

// checkReproduces fails when --reproduces names no run of the study, or a
// run that is itself a reproduction: a rerun reproduces the original.
func checkReproduces(s *study.Study, id string) error {
	if id == "" {
		return nil
	}
	r := s.Run(id)
	switch {
	case r == nil:
		return fmt.Errorf("--reproduces %q is no run of %s: name the run folder whose figures you reran", id, s.Pos.File)
	case r.Reproduces != "":
		return fmt.Errorf("--reproduces %s: that run is itself a reproduction of %s; name the original, --reproduces %s", id, r.Reproduces, r.Reproduces)
	}
	return nil
}

package pipeline

import (
	"path"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/study"
)

// studyNames are the names a study's own prose may write in Latin script
// in Chinese and Japanese (its model, engines and GPU), read from its
// study.yaml; none when it has none.
func studyNames(d Dirs, id string) []string {
	if d.Results == "" {
		return nil
	}
	data, err := d.folder(d.Results).ReadFile(path.Join(id, study.StudyFile))
	if err != nil {
		return nil
	}
	return check.NamesOfStudy(data)
}

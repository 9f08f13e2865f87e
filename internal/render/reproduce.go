package render

import (
	"github.com/perflab/perflab/internal/recipe"
)

// reproduceView is the section of recipes.
type reproduceView struct {
	Intro rich
	Runs  []recipeView
}

// recipeView is the recipe of one run: a heading and a shell block.
type recipeView struct {
	ID             string
	Heading, Block rich
}

// reproduce gives each run that has results its recipe, in run id order,
// as a block to paste (recipe.Commented).
func (p *reportPage) reproduce() *reproduceView {
	if len(p.recipes) == 0 {
		return nil
	}
	v := &reproduceView{Intro: p.loc.R("reproduce.intro", "File", richCode("data/"+p.s.ID+".reproduce.sh"))}
	for _, rc := range p.recipes {
		v.Runs = append(v.Runs, recipeView{ID: rc.Run, Heading: nameAndID(rc.Name, rc.Run),
			Block: richFence(recipe.Commented(rc, p.loc.T, p.repoPath), "bash", p.codeLabel)})
	}
	return v
}

// nameAndID is a run's heading: "Name (`id`)".
func nameAndID(name, id string) rich {
	return richJoin(richText(name), rich{" (", " ("}, richCode(id), rich{")", ")"})
}

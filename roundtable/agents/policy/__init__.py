"""Agent kind ``policy``: a policy trained through the environments (docs/envs.md#the-worked-example), no model."""

// A plugin: OpenCode imports it when it starts in this repository.
export const Notify = async () => ({})

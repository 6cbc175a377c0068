// Run by the folderOpen task in .vscode/tasks.json when the folder opens.
console.log("prepared");

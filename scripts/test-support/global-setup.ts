// Placeholder until the test stack lands: starts nothing yet.
export default async function globalSetup(): Promise<void> {}

/** The page of an area that is not built yet, so the navigation already shows the whole product. */
export function ComingSoon({ title, about }: { title: string; about: string }) {
  return (
    <div>
      <h1 className="text-xl font-semibold text-gray-900">{title}</h1>
      <div className="mt-6 rounded-lg border border-dashed border-gray-300 bg-white px-6 py-10 text-center">
        <p className="text-sm font-medium text-gray-800">Coming soon</p>
        <p className="mt-1 text-sm text-gray-600">{about}</p>
      </div>
    </div>
  );
}

import type { Product } from '@catalogue/shared/product';

function product(id: number, title: string, price: number, category: string, rate?: number): Product {
  return {
    id,
    title,
    price,
    description: `${title}, described at length for the detail page.`,
    category,
    image: `/api/products/${id}/image`,
    ...(rate === undefined ? {} : { rating: { rate, count: 10 * id } }),
  };
}

/** A small catalogue with ties, mixed case, a missing rating and more than a gallery's worth of products. */
export const FIXTURE_PRODUCTS: Product[] = [
  product(1, 'Fjallraven Backpack', 109.95, "men's clothing", 3.9),
  product(2, 'Mens Casual Slim Fit T-Shirt', 22.3, "men's clothing", 4.1),
  product(3, 'cotton Jacket', 55.99, "men's clothing", 4.7),
  product(4, 'Silver Dragon Bracelet', 695, 'jewelery', 4.6),
  product(5, 'Solid Gold Petite Micropave', 168, 'jewelery'),
  product(6, 'White Gold Plated Princess', 9.99, 'jewelery', 3),
  product(7, 'Portable External Hard Drive', 64, 'electronics', 3.3),
  product(8, 'Rain Jacket Women Windbreaker', 39.99, "women's clothing", 3.8),
];

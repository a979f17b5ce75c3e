import type { Product } from '@catalogue/shared/product';

/**
 * The one fixture catalogue: twenty Fake-Store-shaped products for the server tests, the client tests, the
 * browser suite and the bench, as messy as the real upstream's. `image` is a path on the upstream double
 * (`/images/<id>.png`), which it turns into an absolute URL on its own address when it serves them.
 *
 * - long titles (5, 11, 12, 14) and short ones (3);
 * - product 5 has no rating;
 * - product 9's title starts with an accented letter ('Écharpe…') and product 19's with a lower-case one
 *   ('opna…'), so sorting by name must follow the locale, not code points or case;
 * - products 10 and 11 cost the same (109), so sorting by price has a tie to keep in upstream order;
 * - categories in the upstream's own spelling ("men's clothing", 'jewelery'), and two hostile ones that category
 *   links, URLs and the API must carry intact: product 19's has a slash, an ampersand and an emoji, product 20's
 *   is markup with quotes, `%`, `?` and `#`;
 * - more than the six the home page's gallery shows.
 */
export const FIXTURE_PRODUCTS: readonly Product[] = [
  {
    id: 1,
    title: 'Fjallraven - Foldsack No. 1 Backpack, Fits 15 Laptops',
    price: 109.95,
    description: 'Your perfect pack for everyday use and walks in the forest. Stash your laptop (up to 15 inches) in the padded sleeve.',
    category: "men's clothing",
    image: '/images/1.png',
    rating: { rate: 3.9, count: 120 },
  },
  {
    id: 2,
    title: 'Mens Casual Premium Slim Fit T-Shirts',
    price: 22.3,
    description: 'Slim-fitting style, contrast raglan long sleeve, three-button henley placket, light weight and soft fabric.',
    category: "men's clothing",
    image: '/images/2.png',
    rating: { rate: 4.1, count: 259 },
  },
  {
    id: 3,
    title: 'Mens Cotton Jacket',
    price: 55.99,
    description: 'Great outerwear jackets for spring, autumn and winter, suitable for many occasions.',
    category: "men's clothing",
    image: '/images/3.png',
    rating: { rate: 4.7, count: 500 },
  },
  {
    id: 4,
    title: 'Mens Casual Slim Fit',
    price: 15.99,
    description: 'The colour could be slightly different between on the screen and in practice.',
    category: "men's clothing",
    image: '/images/4.png',
    rating: { rate: 2.1, count: 430 },
  },
  {
    id: 5,
    title: "John Hardy Women's Legends Naga Gold & Silver Dragon Station Chain Bracelet",
    price: 695,
    description: 'From our Legends Collection, the Naga was inspired by the mythical water dragon that protects the ocean.',
    category: 'jewelery',
    image: '/images/5.png',
  },
  {
    id: 6,
    title: 'Solid Gold Petite Micropave',
    price: 168,
    description: 'Satisfaction guaranteed. Return or exchange any order within 30 days.',
    category: 'jewelery',
    image: '/images/6.png',
    rating: { rate: 3.9, count: 70 },
  },
  {
    id: 7,
    title: 'White Gold Plated Princess',
    price: 9.99,
    description: 'Classic created wedding engagement solitaire diamond promise ring for her. Gifts to spoil your love more.',
    category: 'jewelery',
    image: '/images/7.png',
    rating: { rate: 3, count: 400 },
  },
  {
    id: 8,
    title: 'Pierced Owl Rose Gold Plated Stainless Steel Double',
    price: 10.99,
    description: 'Rose gold plated double flared tunnel plug earrings. Made of 316L stainless steel.',
    category: 'jewelery',
    image: '/images/8.png',
    rating: { rate: 1.9, count: 100 },
  },
  {
    id: 9,
    title: 'Écharpe en laine mérinos',
    price: 39.5,
    description: 'A soft merino wool scarf, knitted in one piece, warm without weight.',
    category: "women's clothing",
    image: '/images/9.png',
    rating: { rate: 4.4, count: 87 },
  },
  {
    id: 10,
    title: 'SanDisk SSD PLUS 1TB Internal SSD - SATA III 6 Gb/s',
    price: 109,
    description: 'Easy upgrade for faster boot up, shutdown, application load and response.',
    category: 'electronics',
    image: '/images/10.png',
    rating: { rate: 2.9, count: 470 },
  },
  {
    id: 11,
    title: 'Silicon Power 256GB SSD 3D NAND A55 SLC Cache Performance Boost SATA III 2.5',
    price: 109,
    description: '3D NAND flash are applied to deliver high transfer speeds. Remarkable transfer speeds that enable faster bootup.',
    category: 'electronics',
    image: '/images/11.png',
    rating: { rate: 4.8, count: 319 },
  },
  {
    id: 12,
    title: 'WD 4TB Gaming Drive Works with Playstation 4 Portable External Hard Drive',
    price: 114,
    description: 'Expand your PS4 gaming experience, play anywhere. Fast and easy setup.',
    category: 'electronics',
    image: '/images/12.png',
    rating: { rate: 4.8, count: 400 },
  },
  {
    id: 13,
    title: 'Acer SB220Q bi 21.5 inches Full HD (1920 x 1080) IPS Ultra-Thin',
    price: 599,
    description: '21.5 inches Full HD widescreen IPS display with Radeon FreeSync technology.',
    category: 'electronics',
    image: '/images/13.png',
    rating: { rate: 2.9, count: 250 },
  },
  {
    id: 14,
    title: 'Samsung 49-Inch CHG90 144Hz Curved Gaming Monitor (LC49HG90DMNXZA)',
    price: 999.99,
    description: '49 inch super ultrawide 32:9 curved gaming monitor with dual 27 inch screens side by side.',
    category: 'electronics',
    image: '/images/14.png',
    rating: { rate: 2.2, count: 140 },
  },
  {
    id: 15,
    title: "BIYLACLESEN Women's 3-in-1 Snowboard Jacket Winter Coats",
    price: 56.99,
    description: 'Detachable liner fabric: warm fleece. Materials: 100% polyester; detachable functional liner.',
    category: "women's clothing",
    image: '/images/15.png',
    rating: { rate: 2.6, count: 235 },
  },
  {
    id: 16,
    title: "Lock and Love Women's Removable Hooded Faux Leather Moto Biker Jacket",
    price: 29.95,
    description: '100% polyurethane shell, 100% polyester lining; detachable hood; faux leather.',
    category: "women's clothing",
    image: '/images/16.png',
    rating: { rate: 2.9, count: 340 },
  },
  {
    id: 17,
    title: 'Rain Jacket Women Windbreaker Striped Climbing Raincoats',
    price: 39.99,
    description: 'Lightweight perfect for trip or casual wear. Long sleeve with hooded, adjustable drawstring waist design.',
    category: "women's clothing",
    image: '/images/17.png',
    rating: { rate: 3.8, count: 679 },
  },
  {
    id: 18,
    title: "MBJ Women's Solid Short Sleeve Boat Neck V",
    price: 9.85,
    description: '95% rayon, 5% spandex, made in USA or imported, lightweight fabric with great stretch for comfort.',
    category: "women's clothing",
    image: '/images/18.png',
    rating: { rate: 4.7, count: 130 },
  },
  {
    id: 19,
    title: "opna Women's Short Sleeve Moisture",
    price: 7.95,
    description: '100% polyester, machine wash, 100% cationic polyester interlock, lightweight and breathable.',
    category: 'home & garden/outdoor 🏕️',
    image: '/images/19.png',
    rating: { rate: 4.5, count: 146 },
  },
  {
    id: 20,
    title: 'DANVOUY Womens T Shirt Casual Cotton Short',
    price: 12.99,
    description: '95% cotton, 5% spandex. Features: casual, short sleeve, letter print, V-neck, fashion tees.',
    category: `<script>alert('category')</script> 100% "kids"?#`,
    image: '/images/20.png',
    rating: { rate: 3.6, count: 145 },
  },
];
